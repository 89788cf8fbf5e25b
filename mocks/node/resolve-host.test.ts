import { describe, expect, it } from 'vitest';
import { isPublicAddress } from '../core/reference/public-address.js';
import { resolveHost } from './resolve-host.js';

describe('resolveHost', () => {
  it('gives every address of a name, from the system resolver (localhost: loopback only)', async () => {
    const addresses = await resolveHost('localhost');
    expect(addresses.length).toBeGreaterThan(0);
    expect(addresses.filter(isPublicAddress)).toEqual([]);
    expect(addresses.every((address) => address === '::1' || address.startsWith('127.'))).toBe(true);
  });
});
