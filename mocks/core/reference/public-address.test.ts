import { describe, expect, it } from 'vitest';
import { isAddressLiteral, isLoopbackName, isPublicAddress } from './public-address.js';

describe('isPublicAddress', () => {
  it.each([
    // loopback, IPv4 and IPv6, and IPv4 carried in IPv6
    '127.0.0.1',
    '127.255.1.2',
    '::1',
    '[::1]',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    // private, carrier-grade NAT, link-local (the cloud metadata address), unique-local
    '10.0.0.1',
    '172.16.5.4',
    '172.31.255.255',
    '192.168.1.1',
    '100.64.0.1',
    '169.254.169.254',
    'fe80::1',
    'fd00:ec2::254',
    'fc00::1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    // unspecified, broadcast, multicast, documentation
    '0.0.0.0',
    '0.1.2.3',
    '::',
    '255.255.255.255',
    '224.0.0.1',
    'ff02::1',
    '192.0.2.1',
    '2001:db8::1',
    // IPv6 forms that lead to an IPv4 address this cannot judge
    '64:ff9b::7f00:1',
    '2002:7f00:1::1',
    // not addresses at all
    'localhost',
    '',
    '999.1.1.1',
  ])('%s is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '172.32.0.1',
    '2606:4700:4700::1111',
    '[2a00:1450::1]',
    '::ffff:8.8.8.8',
  ])('%s is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('host names and literals', () => {
  it.each([
    ['127.0.0.1', true],
    ['[::1]', true],
    ['example.com', false],
    ['1.2.3.example', false],
    ['localhost', false],
  ])('isAddressLiteral(%s) is %s', (host, literal) => {
    expect(isAddressLiteral(host)).toBe(literal);
  });

  it.each([
    ['localhost', true],
    ['LOCALHOST.', true],
    ['app.localhost', true],
    ['localhost.example.com', false],
    ['mylocalhost', false],
  ])('isLoopbackName(%s) is %s', (host, loopback) => {
    expect(isLoopbackName(host)).toBe(loopback);
  });

  it('judges hosts as URL spells them: every IPv4 spelling of loopback becomes 127.0.0.1', () => {
    for (const spelling of ['2130706433', '0x7f.1', '0177.0.0.1', '127.1', '0x7F000001']) {
      const host = new URL(`http://${spelling}:8080/`).hostname;
      expect([spelling, isAddressLiteral(host), isPublicAddress(host)]).toEqual([spelling, true, false]);
    }
    const mapped = new URL('http://[::ffff:127.0.0.1]/').hostname;
    expect([mapped, isPublicAddress(mapped)]).toEqual(['[::ffff:7f00:1]', false]);
  });
});
