/**
 * What a person is shown at start: the addresses other devices can use (the first-start
 * banner, src/bootstrap.ts), and the warning when a configured `publicUrl` names this
 * machine's localhost although other devices are meant to connect.
 */
import { isLoopbackHost, listensEverywhere, type Addresses } from './addresses.js';

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
 * when set, else each network interface with the port), then this machine's own.
 */
export function addressLines(
  addresses: Pick<Addresses, 'shareable' | 'local' | 'publicBase'>,
): string {
  const shareable = addresses.shareable;
  const others = addresses.publicBase
    ? `From other devices: ${shareable[0]}\n`
    : shareable.length
      ? `From other devices on the network:\n${shareable.map((u) => `    ${u}\n`).join('')}`
      : 'Other devices cannot reach it: it listens on this machine only (server.host).\n';
  return `${others}On this machine: ${addresses.local}\n`;
}
