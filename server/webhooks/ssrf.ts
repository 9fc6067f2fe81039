/**
 * The SSRF guard of every outgoing request: only http(s) URLs, and a host whose
 * every resolved address is public (unless OUTBOUND_ALLOW_PRIVATE). The request
 * then connects to the addresses validated here (pinnedLookup), so a DNS answer
 * that changes between the check and the connect (rebinding) cannot slip through.
 */
import dns from 'node:dns';
import net from 'node:net';
import { AppError } from '../errors/AppError.js';

export interface Target {
  url: URL;
  /** Validated addresses to connect to; null when private targets are allowed (no pinning needed). */
  addresses: dns.LookupAddress[] | null;
}

type Range = [bigint, number, string];

const v4 = (a: string, bits: number, label: string): Range => [ipv4ToBig(a), 96 + bits, label];
const v6 = (a: string, bits: number, label: string): Range => [ipv6ToBig(a)!, bits, label];

/**
 * Address ranges that are not globally reachable, IPv4 ones as IPv4-mapped
 * IPv6 (::ffff:0:0/96, which no IPv6 range below overlaps): the IPv6 ones named
 * outside global unicast (2000::/3) and those refused inside it. An IPv6
 * address outside 2000::/3 that none of them names is refused too ("a reserved
 * address").
 */
const REFUSED: Range[] = [
  v4('0.0.0.0', 8, 'an unspecified ("this network") address'),
  v4('10.0.0.0', 8, 'a private address'),
  v4('100.64.0.0', 10, 'a carrier-grade NAT (shared) address'),
  v4('127.0.0.0', 8, 'a loopback address'),
  v4('169.254.0.0', 16, 'a link-local address'),
  v4('172.16.0.0', 12, 'a private address'),
  v4('192.0.0.0', 24, 'an IETF protocol address'),
  v4('192.0.2.0', 24, 'a documentation address'),
  v4('192.88.99.0', 24, 'a 6to4 relay address'),
  v4('192.168.0.0', 16, 'a private address'),
  v4('198.18.0.0', 15, 'a benchmarking address'),
  v4('198.51.100.0', 24, 'a documentation address'),
  v4('203.0.113.0', 24, 'a documentation address'),
  v4('224.0.0.0', 4, 'a multicast address'),
  v4('240.0.0.0', 4, 'a reserved or broadcast address'),
  v6('2001::', 32, 'a Teredo tunnel address'),
  v6('2001:2::', 48, 'a benchmarking address'),
  v6('2001:10::', 28, 'an ORCHID address'),
  v6('2001:20::', 28, 'an ORCHID address'),
  v6('2001:db8::', 32, 'a documentation address'),
  v6('3fff::', 20, 'a documentation address'),
  v6('::', 128, 'an unspecified address'),
  v6('::1', 128, 'a loopback address'),
  v6('64:ff9b:1::', 48, 'a local NAT64 address'),
  v6('100::', 64, 'a discard-only address'),
  v6('fc00::', 7, 'a unique-local address'),
  v6('fe80::', 10, 'a link-local address'),
  v6('fec0::', 10, 'a site-local address'),
  v6('ff00::', 8, 'a multicast address'),
];

function inRange(value: bigint, [base, bits]: Range): boolean {
  const shift = BigInt(128 - bits);
  return value >> shift === base >> shift;
}

function ipv4ToBig(ip: string): bigint {
  const parts = ip.split('.').map(Number);
  return (0xffffn << 32n) | BigInt(((parts[0] << 24) | (parts[1] << 16) | (parts[2] << 8) | parts[3]) >>> 0);
}

/** 128-bit value of an IPv6 literal (with an optional trailing dotted quad and zone), or null. */
function ipv6ToBig(ip: string): bigint | null {
  let text = ip.split('%')[0].toLowerCase();
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad) {
    if (!net.isIPv4(quad[1])) return null;
    const n = ipv4ToBig(quad[1]) & 0xffffffffn;
    text = `${text.slice(0, -quad[1].length)}${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  let value = 0n;
  for (const g of groups) {
    if (!/^[0-9a-f]{1,4}$/.test(g)) return null;
    value = (value << 16n) | BigInt(parseInt(g, 16));
  }
  return value;
}

function classifyV4(mapped: bigint): string | null {
  return REFUSED.find((r) => inRange(mapped, r))?.[2] ?? null;
}

/**
 * Why an address may not be targeted ("a loopback address", …), or null when
 * it is public. IPv6 forms that embed an IPv4 address (mapped, compatible,
 * NAT64, 6to4) are judged by the IPv4 address they carry.
 */
export function classifyAddress(ip: string): string | null {
  if (net.isIPv4(ip)) return classifyV4(ipv4ToBig(ip));
  const value = ipv6ToBig(ip);
  if (value === null || !net.isIPv6(ip.split('%')[0])) return 'not an IP address';
  const low32 = value & 0xffffffffn;
  const asV4 = (0xffffn << 32n) | low32;
  const embedded = (label: string): string | null => {
    const reason = classifyV4(asV4);
    return reason ? `${reason} (${label})` : null;
  };
  if (value >> 32n === 0xffffn) return embedded('IPv4-mapped');
  if (value >> 32n === 0n && value > 1n) return embedded('IPv4-compatible');
  if (value >> 32n === ipv6ToBig('64:ff9b::')! >> 32n) return embedded('NAT64');
  if (value >> 112n === 0x2002n) {
    const reason = classifyV4((0xffffn << 32n) | ((value >> 80n) & 0xffffffffn));
    return reason ? `${reason} (6to4)` : null;
  }
  const refused = REFUSED.find((r) => inRange(value, r));
  if (refused) return refused[2];
  return value >> 125n !== 1n ? 'a reserved address' : null;
}

const refuse = (message: string): AppError => new AppError('outbound_url_refused', message);

/** Parses and checks the URL's scheme; throws outbound_url_refused with the reason. */
export function parseOutboundUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse(`"${raw}" is not a valid URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refuse(`Only http and https URLs may be targeted (got ${url.protocol}).`);
  return url;
}

/**
 * Resolves the URL's host (every address) and refuses it when one address is
 * not public, unless allowPrivate. Throws AppError('outbound_url_refused').
 * DNS failures are thrown as they come (a network error, worth a retry).
 */
export async function resolveTarget(raw: string, allowPrivate: boolean): Promise<Target> {
  const url = parseOutboundUrl(raw);
  if (allowPrivate) return { url, addresses: null };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = net.isIP(host) ? [{ address: host, family: net.isIP(host) }] : await dns.promises.lookup(host, { all: true, verbatim: true });
  if (addresses.length === 0) throw new Error(`${host} has no address`);
  for (const a of addresses) {
    const reason = classifyAddress(a.address);
    if (reason) {
      const shown = a.address === host ? `${host} is` : `${host} resolves to ${a.address},`;
      throw refuse(`Refused: ${shown} ${reason}; outbound requests may not target private networks (OUTBOUND_ALLOW_PRIVATE is off).`);
    }
  }
  return { url, addresses };
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/** A `lookup` for http.request that answers only the validated addresses. */
export function pinnedLookup(addresses: dns.LookupAddress[]): net.LookupFunction {
  return (_host: string, options: dns.LookupOptions, callback: LookupCallback) => {
    const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
    const list = wanted.length > 0 ? wanted : addresses;
    if (options.all) callback(null, list);
    else callback(null, list[0].address, list[0].family);
  };
}
