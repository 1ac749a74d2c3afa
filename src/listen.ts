/**
 * Binding the HTTP server, with the ways it fails at start translated into one line that names
 * the address and port (the operator fixes them in the configuration or on the machine).
 */
import type { Server } from 'node:http';
import { StartupError, errnoName, errorLine } from './startup.js';

/** The server could not listen on the configured host and port. */
export class ListenError extends StartupError {}

export async function listen(server: Server, host: string, port: number): Promise<void> {
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    throw new ListenError(
      `cannot listen on ${hostPort(host, port)}: ${explainListenError(err, host, port)}`,
      { cause: err },
    );
  }
}

function hostPort(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

function explainListenError(err: unknown, host: string, port: number): string {
  const name = errnoName(err);
  switch (name) {
    case 'EADDRINUSE':
      return `port ${port} is already in use by another program; stop it or choose another port (--port, HOUSEHOLD_PORT or server.port) (${name})`;
    case 'EACCES':
    case 'EPERM':
      return `this user may not listen on port ${port} (ports below 1024 need privileges); choose a port of 1024 or more (${name})`;
    case 'EADDRNOTAVAIL':
      return `"${host}" is not an address of this machine; use one of its addresses, 127.0.0.1 or 0.0.0.0 (--host, HOUSEHOLD_HOST or server.host) (${name})`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
    case 'EAI_NONAME':
      return `the host "${host}" does not resolve to an address; give an IP address or a name of this machine, without a port (--host, HOUSEHOLD_HOST or server.host) (${name})`;
    case 'EAFNOSUPPORT':
      return `this machine does not support the address family of "${host}" (${name})`;
    case undefined:
    default:
      return errorLine(err, name);
  }
}
