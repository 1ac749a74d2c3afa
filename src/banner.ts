/**
 * What a person is shown at start: the addresses other devices can use (the first-start
 * banner, src/bootstrap.ts), and the warning when a configured `publicUrl` names this
 * machine's localhost although other devices are meant to connect.
 */
import { isLoopbackHost, listensEverywhere, type Addresses } from './addresses.js';

/**
 * Whether this process is the published image (the Dockerfile sets HOUSEHOLD_IMAGE): there the
 * interfaces the daemon sees are the container's, and other devices use the host's address with
 * the port the container publishes. Any other process — `npm start` on a laptop, in a dev
 * container or a VM — lists its own interfaces, which are what its neighbours reach.
 */
export function runningInImage(): boolean {
  return process.env.HOUSEHOLD_IMAGE === '1';
}

/**
 * The one warn line for a `publicUrl` other devices cannot use while the daemon listens on all
 * interfaces (the default, and what Docker needs), or null when there is nothing to say.
 * Without a publicUrl links follow each request's address, so there is nothing to warn about.
 */
export function publicUrlWarning(
  host: string,
  publicUrl: string | null,
  port: number,
): string | null {
  if (publicUrl === null) return null;
  if (!listensEverywhere(host) || !isLoopbackHost(new URL(publicUrl).hostname)) return null;
  return (
    `server.publicUrl is ${publicUrl} while listening on all interfaces: links the daemon hands out and stores will point at localhost, ` +
    'which other devices cannot reach; set HOUSEHOLD_PUBLIC_URL or server.publicUrl to the address people use, ' +
    `or leave it unset so links follow the address each request came to (e.g. http://<this machine's LAN address>:${port})`
  );
}

/**
 * The lines naming where the daemon can be reached: the addresses for other devices (publicUrl
 * when set, else each network interface with the port), then this machine's own. In a
 * container the interfaces are the container's: other devices use the host's address.
 */
export function addressLines(
  addresses: Pick<Addresses, 'shareable' | 'local' | 'publicBase'>,
  inContainer = false,
): string {
  const shareable = addresses.shareable;
  if (addresses.publicBase)
    return `From other devices: ${shareable[0]}\nOn this machine: ${addresses.local}\n`;
  if (inContainer)
    return (
      `From other devices: this host's address with the port the container publishes (e.g. docker run -p 8080:8080)\n` +
      `In the container: ${[...shareable, addresses.local].join(', ')}\n`
    );
  const others = shareable.length
    ? `From other devices on the network:\n${shareable.map((u) => `    ${u}\n`).join('')}`
    : 'Other devices cannot reach it: it listens on this machine only (server.host).\n';
  return `${others}On this machine: ${addresses.local}\n`;
}

/**
 * What the start warns about in the configuration of addresses: a set publicUrl naming
 * localhost while every interface listens, and the deprecated `server.trustProxy`.
 */
export function addressWarnings(
  server: { host: string; publicUrl: string | null; trustProxy?: boolean | undefined },
  port: number,
): string[] {
  const warnings: string[] = [];
  const local = publicUrlWarning(server.host, server.publicUrl, port);
  if (local) warnings.push(local);
  if (server.trustProxy === true)
    warnings.push(
      'server.trustProxy is deprecated: it trusts every peer; list your reverse proxy in server.trustedProxies instead (docs/upgrading.md)',
    );
  return warnings;
}
