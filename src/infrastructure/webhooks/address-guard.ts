import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where the service may send webhooks (server-side request forgery guard). In production only `https` to public
 * unicast addresses; private, loopback, link-local, carrier-grade NAT, unique-local, multicast, NAT64 and every
 * other special range are refused. Outside production `http` and loopback are allowed too, so partners can point
 * the sandbox at a receiver on their own machine.
 */
export interface AddressPolicy {
  production: boolean;
}

/** Why an address may not be connected to, or null when it may. */
export function refusedAddress(address: string, policy: AddressPolicy): string | null {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  // IPv4-mapped IPv6 addresses (::ffff:10.0.0.1) are judged as the IPv4 address they reach.
  const range = ipaddr.process(address).range();
  if (range === 'unicast') return null;
  if (range === 'loopback' && !policy.production) return null;
  return `${address} is a ${range} address, which webhooks may not be sent to${policy.production ? ' in production' : ''}`;
}

/** Checks a URL's form (scheme, no credentials) before any address is looked at. */
export function refusedUrl(raw: string, policy: AddressPolicy): { url: URL } | { reason: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { reason: 'must be an absolute URL' };
  }
  const schemes = policy.production ? ['https:'] : ['https:', 'http:'];
  if (!schemes.includes(url.protocol)) return { reason: `must use ${policy.production ? 'https' : 'http or https'}` };
  if (url.username || url.password) return { reason: 'must not contain credentials' };
  if (url.hash) return { reason: 'must not contain a fragment' };
  return { url };
}

/** The URL's host without the brackets of an IPv6 literal. */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** Resolves a host (an IP literal resolves to itself) to every address it has. */
function resolveHost(host: string): Promise<LookupAddress[]> {
  if (isIP(host)) return Promise.resolve([{ address: host, family: isIP(host) }]);
  return new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  );
}

/** Null when every address of the URL's host may be connected to; otherwise why not. */
export async function refusedDestination(url: URL, policy: AddressPolicy): Promise<string | null> {
  let addresses: LookupAddress[];
  try {
    addresses = await resolveHost(hostOf(url));
  } catch {
    return `host ${hostOf(url)} does not resolve`;
  }
  if (addresses.length === 0) return `host ${hostOf(url)} does not resolve`;
  for (const { address } of addresses) {
    const refused = refusedAddress(address, policy);
    if (refused) return refused;
  }
  return null;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request that resolves the host at connection time and only ever hands the socket addresses
 * the policy allows: a name that resolved to a public address at registration and to a private one now (DNS
 * rebinding) is refused before any connection is made.
 */
export function guardedLookup(policy: AddressPolicy) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback) => {
    resolveHost(hostname).then(
      (addresses) => {
        const refused = addresses.map((a) => refusedAddress(a.address, policy)).find((r) => r !== null);
        if (refused || addresses.length === 0) {
          const err: NodeJS.ErrnoException = new Error(refused ?? `host ${hostname} does not resolve`);
          err.code = 'EADDRNOTALLOWED';
          return callback(err, []);
        }
        if (options.all) return callback(null, addresses);
        return callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, []),
    );
  };
}
