import { lookup } from 'node:dns/promises';

/**
 * Every address a host name resolves to, through the system resolver (the one fetch uses), so the
 * core can refuse a ref_audio URL whose name leads to a loopback, private or link-local address.
 *
 * @example
 * const service = createMockService({ resolveHost });
 */
export async function resolveHost(hostname: string): Promise<readonly string[]> {
  const found = await lookup(hostname, { all: true, verbatim: true });
  return found.map((entry) => entry.address);
}
