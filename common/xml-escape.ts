/**
 * Escape text for XML content and attribute values, dropping characters XML 1.0 cannot hold.
 *
 * @example
 * xmlEscape('a < b & "c"') // 'a &lt; b &amp; &quot;c&quot;'
 */
export function xmlEscape(s: string): string {
  return (
    s
      // biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters XML forbids
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&apos;')
  );
}
