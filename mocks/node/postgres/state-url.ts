/**
 * What is wrong with a `--state-url` (or a config file's `"stateUrl"`), or undefined: a PostgreSQL
 * connection URL, `postgres://user:password@host:5432/database` (`postgresql://` too).
 *
 * @example
 * stateUrlProblem('--state-url', 'mysql://db'); // '--state-url: expected postgres://…'
 */
export function stateUrlProblem(source: string, value: unknown): string | undefined {
  const expected = `${source}: expected a PostgreSQL URL, postgres://user:password@host:5432/database`;
  if (typeof value !== 'string') return expected;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${expected}, got a value that is no URL`;
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')
    return `${expected}, got a ${url.protocol.slice(0, 20)} URL`;
  return undefined;
}

/**
 * The URL with its password hidden, for messages.
 *
 * @example
 * shownUrl('postgres://mock:secret@db:5432/mock'); // 'postgres://mock:***@db:5432/mock'
 */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.href;
  } catch {
    return 'the --state-url';
  }
}
