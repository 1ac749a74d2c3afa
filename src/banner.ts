/**
 * The addresses a person is shown at start: which URL the first-start banner names, and the
 * warning when share links would point at `localhost` although other devices are meant to
 * connect (the daemon listens on all interfaces).
 */
import { publicBase } from './config.js';
import { isIP } from 'node:net';

/** `server.host` values that mean "every interface". */
export function listensEverywhere(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]' || host === '';
}

/** A host name that only ever reaches the machine it is typed on. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) return h === '::1' || /^::ffff:127\./.test(h) || /^::ffff:7f/.test(h);
  return false;
}

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/**
 * The one warn line for a `publicUrl` other devices cannot use while the daemon listens on all
 * interfaces (the default, and what Docker needs), or null when there is nothing to say.
 */
export function publicUrlWarning(host: string, publicUrl: string, port: number): string | null {
  const parsed = parse(publicUrl);
  if (!parsed)
    return `server.publicUrl "${publicUrl}" is not a URL: share links and plan pages will not work; set HOUSEHOLD_PUBLIC_URL or server.publicUrl to the address people use`;
  if (!listensEverywhere(host) || !isLoopbackHost(parsed.hostname)) return null;
  return (
    `server.publicUrl is ${publicUrl} while listening on all interfaces: share links and plan pages will point at localhost, ` +
    'which other devices cannot reach; set HOUSEHOLD_PUBLIC_URL or server.publicUrl to the address people use ' +
    `(e.g. http://<this machine's name or LAN address>:${port})`
  );
}

/**
 * The base URL the first-start banner shows: `publicUrl` when it names an address other
 * devices can use (the operator set it: a LAN name, the reverse proxy), else the local URL the
 * daemon listens on (127.0.0.1 when it listens on all interfaces).
 */
export function bannerUrl(publicUrl: string, localUrl: string): string {
  const parsed = parse(publicUrl);
  if (!parsed || isLoopbackHost(parsed.hostname) || !/^https?:$/.test(parsed.protocol))
    return localUrl;
  return publicBase(publicUrl);
}
