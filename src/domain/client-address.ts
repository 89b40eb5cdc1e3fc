import { isIPv4 } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The unit failed authentications are counted by. An IPv4 address is one client. An IPv6 host is normally given a
 * whole /64 (its provider routes the prefix, and the host picks addresses in it at will), so counting single IPv6
 * addresses would let one host try 2^64 times as often: its /64 is the unit. An IPv4-mapped IPv6 address
 * (`::ffff:192.0.2.1`, what a dual-stack socket reports) is the IPv4 client it maps.
 */
export function throttleUnit(address: string): string {
  // The common case, a socket's IPv4 peer, is already canonical (net.isIPv4 accepts no other form): no parsing.
  if (isIPv4(address)) return address;
  if (!ipaddr.isValid(address)) return address;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}
