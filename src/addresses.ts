/**
 * The daemon's own addresses (docs/operations.md, "Addresses"): which base URL a link is built
 * on, who the client of a request is, and which Host names this daemon.
 *
 * - A set `server.publicUrl` wins everywhere.
 * - Without it, an answer to a request builds its links on the origin that request came to:
 *   its `Host` (and the connection's scheme), or `X-Forwarded-Host`/`-Proto` when the peer is
 *   one of `server.trustedProxies` (or a cluster node whose forward signature held). A link
 *   in an answer goes back to whoever asked, so a made-up Host only misleads its own sender.
 * - Anything stored — a change-log record, hence a webhook payload; a notification's text —
 *   is built on `stored`: publicUrl, else the address the daemon listens on (the first
 *   address other devices can use when it listens on every interface). Never on a request's
 *   Host: a stored link is read later by others, and a forged Host must not point it at a
 *   foreign site.
 * - The client of a request is the socket's peer, or — when that peer is a trusted proxy —
 *   the rightmost `X-Forwarded-For` entry that is not itself a trusted proxy.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { hostname as machineName, networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import type Koa from 'koa';
import ipaddr from 'ipaddr.js';
import { publicBase } from './config.js';

/** What the addresses are made from: `server` of the configuration. */
export interface AddressConfig {
  host: string;
  publicUrl: string | null;
  trustedProxies: readonly string[];
  /** Deprecated: `true` trusts every peer, one hop deep (docs/upgrading.md). */
  trustProxy?: boolean | undefined;
}

export type Interfaces = () => NodeJS.Dict<NetworkInterfaceInfo[]>;

/** The scheme and host (with port) a request was sent to, as its client wrote them. */
export interface RequestOrigin {
  protocol: 'http' | 'https';
  /** Lower-case `name[:port]` or `[v6][:port]`, default port left out. */
  host: string;
}

/**
 * The header pair an internal request carries to keep the origin of the request that caused
 * it (an MCP tool call is a REST request to this daemon's loopback address): honoured only with
 * a proof only this process can make.
 */
export const ORIGIN_HEADER = 'x-household-origin';
export const ORIGIN_PROOF_HEADER = 'x-household-origin-proof';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** `server.host` values that mean "every interface". */
export function listensEverywhere(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]' || host === '';
}

/** A host name that only ever reaches the machine it is typed on. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  const ip = parseIp(h);
  return ip !== null && ip.range() === 'loopback';
}

function inRange(ip: Address, net: Address, bits: number): boolean {
  if (ip.kind() !== net.kind()) return false;
  // The kinds are equal, so either overload of match() fits.
  return (ip as ipaddr.IPv4).match([net, bits] as [ipaddr.IPv4, number]);
}

/** An address as a socket or a header writes it, IPv4-mapped IPv6 unwrapped; null if none. */
export function parseIp(text: string): Address | null {
  let s = text.trim();
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  if (!ipaddr.isValid(s)) return null;
  try {
    return ipaddr.process(s);
  } catch {
    return null;
  }
}

/** A matcher for `server.trustedProxies` (IPs and CIDR ranges, IPv4-mapped forms included). */
export function proxyMatcher(list: readonly string[]): (ip: Address | null) => boolean {
  const ranges = list.map((entry) => {
    const e = entry.trim();
    if (ipaddr.isValidCIDR(e)) {
      const [net, bits] = ipaddr.parseCIDR(e);
      const unwrapped = ipaddr.process(net.toString());
      const shift = net.kind() === 'ipv6' && unwrapped.kind() === 'ipv4' ? 96 : 0;
      return [unwrapped, bits - shift] as const;
    }
    const ip = ipaddr.process(e);
    return [ip, ip.kind() === 'ipv4' ? 32 : 128] as const;
  });
  return (ip) => ip !== null && ranges.some(([net, bits]) => inRange(ip, net, bits));
}

const HOST =
  /^(?:\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9-]{0,62})(?:\.[a-z0-9](?:[a-z0-9-]{0,62}))*\.?)(?::\d{1,5})?$/;

/**
 * A Host (or X-Forwarded-Host) value a link may be built on: a DNS name or an IP literal with
 * an optional port, nothing else (no user info, path or spaces), normalized by the URL
 * parser. Null when it is anything else.
 */
export function cleanHost(value: string | undefined): string | null {
  const v = (value ?? '').split(',')[0].trim().toLowerCase();
  if (!v || v.length > 260 || !HOST.test(v)) return null;
  try {
    const url = new URL(`http://${v}`);
    return url.host;
  } catch {
    return null;
  }
}

function urlOf(protocol: string, host: string): string {
  return new URL(`${protocol}://${host}`).origin;
}

/**
 * The URLs other devices can use to reach a daemon listening on every interface at `port`: one
 * per non-loopback, non-link-local address (IPv4 first, then IPv6), in the system's order.
 */
export function interfaceUrls(port: number, interfaces: Interfaces = networkInterfaces): string[] {
  const v4: string[] = [];
  const v6: string[] = [];
  for (const infos of Object.values(interfaces())) {
    for (const info of infos ?? []) {
      if (info.internal) continue;
      const ip = parseIp(info.address);
      if (!ip || ip.range() === 'linkLocal' || ip.range() === 'loopback') continue;
      if (ip.kind() === 'ipv4') v4.push(`http://${ip.toString()}:${port}`);
      else v6.push(`http://[${ip.toString()}]:${port}`);
    }
  }
  return [...new Set([...v4, ...v6])];
}

export class Addresses {
  /** `server.publicUrl` without a trailing slash, or null. */
  readonly publicBase: string | null;
  private readonly trusted: (ip: Address | null) => boolean;
  private readonly anyPeer: boolean;
  /** trustsPeer's answer per socket (see there). */
  private readonly peers = new WeakMap<object, boolean>();
  /** Proves an ORIGIN_HEADER was set by this process. */
  private readonly secret = randomBytes(32);
  private port = 0;
  private lanUrls: string[] = [];

  constructor(
    private readonly server: AddressConfig,
    private readonly interfaces: Interfaces = networkInterfaces,
  ) {
    this.publicBase = server.publicUrl === null ? null : publicBase(server.publicUrl);
    this.trusted = proxyMatcher(server.trustedProxies);
    this.anyPeer = server.trustProxy === true;
  }

  /** Called once the server listens: the port links carry, the interfaces the banner lists. */
  listening(port: number): void {
    this.port = port;
    const host = this.server.host;
    if (listensEverywhere(host)) this.lanUrls = interfaceUrls(port, this.interfaces);
    else if (isLoopbackHost(host)) this.lanUrls = [];
    else this.lanUrls = [urlOf('http', `${host.includes(':') ? `[${host}]` : host}:${port}`)];
  }

  /** The address this machine itself reaches the daemon at (127.0.0.1 on every interface). */
  get local(): string {
    const host = listensEverywhere(this.server.host) ? '127.0.0.1' : this.server.host;
    return `http://${host.includes(':') ? `[${host}]` : host}:${this.port}`;
  }

  /** Addresses other devices can use: publicUrl when set, else each usable interface. */
  get shareable(): string[] {
    return this.publicBase ? [this.publicBase] : [...this.lanUrls];
  }

  /** The base of links that are stored: publicUrl, else the first shareable address. */
  get stored(): string {
    return this.publicBase ?? this.lanUrls[0] ?? this.local;
  }

  /**
   * Whether the socket's peer may speak for the client (a trusted proxy). A socket's peer never
   * changes, so the answer is kept per socket: parsing the address was a visible share of every
   * request's cost on a keep-alive connection.
   */
  trustsPeer(ctx: Koa.Context): boolean {
    if (this.anyPeer) return true;
    const socket = ctx.req.socket;
    let trusted = this.peers.get(socket);
    if (trusted === undefined) {
      trusted = this.trusted(parseIp(socket.remoteAddress ?? ''));
      this.peers.set(socket, trusted);
    }
    return trusted;
  }

  /**
   * The client's address: the peer, or behind trusted proxies the rightmost X-Forwarded-For
   * entry that is not one of them (entries left of it are the client's own words). An entry
   * that is not an address leaves the hop that wrote it as the client.
   */
  clientIp(ctx: Koa.Context): string {
    const peer = ctx.req.socket.remoteAddress ?? '';
    if (!this.trustsPeer(ctx)) return peer;
    const hops = (ctx.get('x-forwarded-for') || '').split(',').map((h) => h.trim());
    let client = peer;
    for (let i = hops.length - 1; i >= 0; i--) {
      const ip = parseIp(hops[i]);
      if (!ip) break;
      client = ip.toString();
      if (!this.trusted(ip)) break;
    }
    return client;
  }

  /**
   * The origin a request came to: vouched for by this process (an internal request), told by
   * a trusted proxy or a cluster node, or its own Host. Null when the Host is missing or not a
   * host name.
   */
  origin(ctx: Koa.Context): RequestOrigin | null {
    const vouched = this.vouched(ctx);
    if (vouched) return vouched;
    const encrypted = (ctx.req.socket as { encrypted?: boolean }).encrypted === true;
    let protocol: 'http' | 'https' = encrypted ? 'https' : 'http';
    let host = cleanHost(ctx.get('host'));
    if (this.trustsPeer(ctx) || typeof ctx.state.forwardedBy === 'string') {
      const proto = (ctx.get('x-forwarded-proto') || '').split(',')[0].trim().toLowerCase();
      if (proto === 'http' || proto === 'https') protocol = proto;
      host = cleanHost(ctx.get('x-forwarded-host')) ?? host;
    }
    return host ? { protocol, host: new URL(`${protocol}://${host}`).host } : null;
  }

  /** The base of links in the answer to `ctx`: publicUrl, else the request's origin. */
  forRequest(ctx: Koa.Context): string {
    if (this.publicBase) return this.publicBase;
    const o = this.origin(ctx);
    return o ? urlOf(o.protocol, o.host) : this.stored;
  }

  /** Headers that carry `base` into an internal request (see ORIGIN_HEADER). */
  vouch(base: string): Record<string, string> {
    return { [ORIGIN_HEADER]: base, [ORIGIN_PROOF_HEADER]: this.proof(base) };
  }

  /**
   * Whether `host` (a Host header, `name[:port]`) names this daemon, for the DNS-rebinding
   * guard of /mcp: publicUrl's host, a loopback name, this machine's name (and `.local`), an
   * address of one of its interfaces or the address the connection arrived on. Any port: a
   * container's published port differs from the one it listens on.
   */
  ownHost(host: string, localAddress?: string): boolean {
    const h = cleanHost(host);
    if (!h) return false;
    if (this.publicBase && h === new URL(this.publicBase).host) return true;
    const name = new URL(`http://${h}`).hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
    if (isLoopbackHost(name)) return true;
    const me = machineName().toLowerCase();
    if (name === me || name === `${me}.local`) return true;
    const ip = parseIp(name);
    if (!ip) return false;
    const mine = Object.values(this.interfaces())
      .flatMap((infos) => infos ?? [])
      .map((i) => i.address);
    if (localAddress) mine.push(localAddress);
    return mine.some((a) => parseIp(a.split('%')[0])?.toString() === ip.toString());
  }

  private proof(base: string): string {
    return createHmac('sha256', this.secret).update(base).digest('base64url');
  }

  private vouched(ctx: Koa.Context): RequestOrigin | null {
    const base = ctx.get(ORIGIN_HEADER);
    if (!base) return null;
    const given = Buffer.from(ctx.get(ORIGIN_PROOF_HEADER));
    const wanted = Buffer.from(this.proof(base));
    if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return null;
    const url = new URL(base);
    return { protocol: url.protocol === 'https:' ? 'https' : 'http', host: url.host };
  }
}
