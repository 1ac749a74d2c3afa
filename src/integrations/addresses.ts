/**
 * What kind of address an outbound connection would reach, and whether a policy lets it.
 * The egress guard asks this about the address a socket is about to connect to (see
 * `egress.ts`); nothing here does I/O, so the whole table is unit-tested without traffic.
 */
import ipaddr from 'ipaddr.js';

export type EgressPolicy = 'public' | 'lan' | 'any';

export type AddressClass =
  | 'public' // globally routed unicast
  | 'private' // RFC 1918 IPv4, IPv6 unique-local fc00::/7
  | 'cgnat' // 100.64.0.0/10 shared address space (also overlay VPNs such as Tailscale)
  | 'loopback' // 127/8, ::1
  | 'linkLocal' // 169.254/16, fe80::/10
  | 'metadata' // cloud instance metadata endpoints
  | 'multicast' // 224/4, ff00::/8
  | 'unspecified' // 0/8 and :: (Linux connects 0.0.0.0 to the local host)
  | 'reserved' // documentation, benchmarking, protocol, unallocated, broadcast, Teredo…
  | 'invalid'; // not an IP address at all

type Rule = readonly [cidr: string, cls: AddressClass];

// First match wins, so the narrow entries (metadata) come before the ranges that hold them.
const V4_RULES: readonly Rule[] = [
  ['0.0.0.0/8', 'unspecified'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.169.254/32', 'metadata'], // AWS, GCP, Azure, Oracle, OpenStack
  ['169.254.0.0/16', 'linkLocal'],
  ['100.100.100.200/32', 'metadata'], // Alibaba Cloud, inside the CGNAT block
  ['100.64.0.0/10', 'cgnat'],
  ['10.0.0.0/8', 'private'],
  ['172.16.0.0/12', 'private'],
  ['192.168.0.0/16', 'private'],
  ['192.0.0.0/24', 'reserved'], // IETF protocol assignments
  ['192.0.2.0/24', 'reserved'], // documentation
  ['198.51.100.0/24', 'reserved'], // documentation
  ['203.0.113.0/24', 'reserved'], // documentation
  ['198.18.0.0/15', 'reserved'], // benchmarking
  ['192.88.99.0/24', 'reserved'], // deprecated 6to4 relay anycast
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'], // future use, and 255.255.255.255 broadcast
];

const V6_RULES: readonly Rule[] = [
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['64:ff9b:1::/48', 'reserved'], // local-use NAT64: where the IPv4 sits depends on the site
  ['fd00:ec2::254/128', 'metadata'], // AWS instance metadata over IPv6
  ['fc00::/7', 'private'],
  ['fe80::/10', 'linkLocal'],
  ['fec0::/10', 'reserved'], // deprecated site-local
  ['ff00::/8', 'multicast'],
  ['2001::/23', 'reserved'], // IETF protocol assignments, Teredo (obfuscated IPv4) among them
  ['2001:db8::/32', 'reserved'], // documentation
  ['3fff::/20', 'reserved'], // documentation
  ['2000::/3', 'public'], // global unicast; anything outside it is unallocated
];

function compile(
  rules: readonly Rule[],
): Array<[ReturnType<typeof ipaddr.parseCIDR>, AddressClass]> {
  return rules.map(([cidr, cls]) => [ipaddr.parseCIDR(cidr), cls]);
}
const V4 = compile(V4_RULES);
const V6 = compile(V6_RULES);

// IPv6 prefixes that carry an IPv4 address a packet ends up at; the IPv4 decides the class.
const MAPPED = ipaddr.parseCIDR('::ffff:0:0/96'); // IPv4-mapped: the kernel connects over IPv4
const TRANSLATED = ipaddr.parseCIDR('::ffff:0:0:0/96'); // IPv4-translated (SIIT)
const NAT64 = ipaddr.parseCIDR('64:ff9b::/96'); // well-known NAT64 prefix
const SIX_TO_FOUR = ipaddr.parseCIDR('2002::/16'); // 6to4: the IPv4 is bits 16–47

function v4FromBytes(bytes: number[]): ipaddr.IPv4 {
  return new ipaddr.IPv4(bytes);
}

function classifyV4(ip: ipaddr.IPv4): AddressClass {
  for (const [range, cls] of V4) if (ip.match(range)) return cls;
  return 'public';
}

/** The IPv4 address an IPv6 address delivers to, when it is one of the embedding forms. */
function embeddedV4(ip: ipaddr.IPv6): ipaddr.IPv4 | null {
  const b = ip.toByteArray();
  if (ip.match(MAPPED) || ip.match(TRANSLATED) || ip.match(NAT64))
    return v4FromBytes(b.slice(12, 16));
  if (ip.match(SIX_TO_FOUR)) return v4FromBytes(b.slice(2, 6));
  return null;
}

function classifyV6(ip: ipaddr.IPv6): AddressClass {
  const inner = embeddedV4(ip);
  if (inner) return classifyV4(inner);
  for (const [range, cls] of V6) if (ip.match(range)) return cls;
  return 'reserved';
}

/**
 * Parses an address in any form a resolver, a URL or a socket may show it: dotted quad and the
 * legacy IPv4 forms (`127.1`, `2130706433`, `0x7f.1`, `0177.0.0.1`), IPv6 with or without
 * brackets or a zone id. Returns null when it is not an IP address.
 */
export function parseAddress(input: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  let s = input.trim();
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  if (s === '' || !ipaddr.isValid(s)) return null;
  try {
    return ipaddr.parse(s);
  } catch {
    return null;
  }
}

/** The class of an address; an IPv6 form that embeds an IPv4 address takes that address's class. */
export function classifyAddress(input: string): AddressClass {
  const ip = parseAddress(input);
  if (!ip) return 'invalid';
  return ip.kind() === 'ipv4' ? classifyV4(ip as ipaddr.IPv4) : classifyV6(ip as ipaddr.IPv6);
}

/**
 * What each policy lets through. `lan` is for services in the household (Home Assistant, a
 * calendar server): the private ranges and CGNAT space (overlay VPNs), never the machine itself,
 * link-local or metadata, which are what a forged URL would aim at.
 */
const POLICY: Record<EgressPolicy, ReadonlySet<AddressClass>> = {
  public: new Set<AddressClass>(['public']),
  lan: new Set<AddressClass>(['public', 'private', 'cgnat']),
  any: new Set<AddressClass>([
    'public',
    'private',
    'cgnat',
    'loopback',
    'linkLocal',
    'metadata',
    'multicast',
    'unspecified',
    'reserved',
  ]),
};

export function allowedClass(policy: EgressPolicy, cls: AddressClass): boolean {
  return POLICY[policy].has(cls);
}

/** Whether `policy` lets a connection go to `ip`; a string that is not an address never passes. */
export function allowed(policy: EgressPolicy, ip: string): boolean {
  return allowedClass(policy, classifyAddress(ip));
}

/** The canonical text of an address (IPv4-mapped shown as IPv4), for allow-lists and messages. */
export function canonicalAddress(input: string): string | null {
  const ip = parseAddress(input);
  if (!ip) return null;
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress())
    return (ip as ipaddr.IPv6).toIPv4Address().toString();
  if (ip.kind() === 'ipv6') {
    const v6 = ip as ipaddr.IPv6;
    return new ipaddr.IPv6(v6.parts).toRFC5952String();
  }
  return ip.toString();
}
