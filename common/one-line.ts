/**
 * Text from a file, put into a one-line message: V8's JSON.parse errors quote the text around the
 * error, newlines and terminal escape sequences included, and a usage error is one line on the
 * terminal. Platform-free.
 */

/** Control characters (C0, DEL, C1), format characters (bidirectional controls), line and paragraph separators. */
const unprintable = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;

const short: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * `text` on one line: every unprintable character written as its escape (`\n`, `\u001b`).
 *
 * @example oneLine('Unexpected token \'\n\', "nul\n" is not valid JSON'); // 'Unexpected token \'\\n\', "nul\\n" is not valid JSON'
 */
export function oneLine(text: string): string {
  return text.replace(unprintable, (c) => short[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
