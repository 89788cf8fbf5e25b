import ipaddr from 'ipaddr.js';

/**
 * Whether an IP address (v4 or v6, as text) is public unicast: not loopback, private, link-local,
 * unique-local, unspecified, carrier-grade NAT, multicast, broadcast, documentation or any other
 * special range. IPv4-mapped IPv6 addresses (::ffff:127.0.0.1) are judged as the IPv4 address they
 * carry; the other IPv6 forms that embed an IPv4 address (NAT64, 6to4, Teredo) are refused, since the
 * address they lead to cannot be judged here. Anything that is not an address is not public.
 *
 * The ranges are ipaddr.js's (a well-kept table of the IANA special-purpose registries), not ours.
 *
 * @example
 * isPublicAddress('169.254.169.254'); // false
 * isPublicAddress('2606:4700::1111'); // true
 */
export function isPublicAddress(address: string): boolean {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (!ipaddr.isValid(bare)) return false;
  // process() turns ::ffff:a.b.c.d into a.b.c.d, so both spellings are judged alike.
  return ipaddr.process(bare).range() === 'unicast';
}

/** Whether a URL's hostname is an IP literal (IPv6 in brackets, as URL spells it). */
export function isAddressLiteral(hostname: string): boolean {
  if (hostname.startsWith('[')) return true;
  // URL has already turned 0x7f.1, 2130706433 and the like into four decimal parts.
  return ipaddr.IPv4.isValidFourPartDecimal(hostname);
}

/** Names that are loopback by definition (RFC 6761), refused without asking DNS. */
export function isLoopbackName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}
