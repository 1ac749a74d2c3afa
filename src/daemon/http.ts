/**
 * The daemon's HTTP server: one node:http server for the doors' Koa app, with timeouts so slow
 * clients cannot hold connections forever, counting the requests being answered (webhooks'
 * share of the thread follows it); and its orderly stop.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';
import type { Addresses } from '../addresses.js';
import { addressWarnings, publicUrlWarning } from '../banner.js';
import type { Config } from '../config.js';
import type { DoorState } from '../door/state.js';
import { listen } from '../listen.js';
import type { InFlightGauge } from '../webhooks/budget.js';

export interface Served {
  server: Server;
  port: number;
  /** The daemon's own address (loopback when it listens on all interfaces). */
  url: string;
  /** Why links built on publicUrl would not reach this daemon, or null. */
  publicUrlWarning: string | null;
  /** What is doubtful about the addresses other devices would use (logged at start). */
  addressWarnings: string[];
}

/**
 * Listens; a failed listen (port in use, foreign address) runs `onFailure` (closing what was
 * opened) and throws a one-line ListenError.
 */
export async function serveHttp(
  config: Config,
  addresses: Addresses,
  app: Koa<DoorState>,
  requests: InFlightGauge,
  onFailure: () => Promise<void>,
): Promise<Served> {
  const handle = app.callback();
  // `void`: Koa's request handler settles every request itself — a rejection is answered by
  // the doors' error boundary — so its promise has nothing left to report.
  const server = createServer((req, res) => {
    void handle(req, res);
  });
  server.on('request', (_req, res) => {
    requests.add(1);
    res.once('close', () => requests.add(-1));
  });
  server.headersTimeout = 20_000;
  server.requestTimeout = 60_000;
  server.keepAliveTimeout = 5_000;
  try {
    await listen(server, config.server.host, config.server.port);
  } catch (err) {
    await onFailure();
    throw err;
  }
  const port = (server.address() as AddressInfo).port;
  addresses.listening(port);
  return {
    server,
    port,
    url: addresses.local,
    publicUrlWarning: publicUrlWarning(config.server.host, config.server.publicUrl, port),
    addressWarnings: addressWarnings(config.server, port),
  };
}

/** Stops accepting; idle keep-alive sockets go now, busy ones once their request finishes. */
export async function stopHttp(server: Server): Promise<void> {
  const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
  // A keep-alive socket turns idle when its last response is sent; close those as they do.
  server.closeIdleConnections();
  const idle = setInterval(() => server.closeIdleConnections(), 25);
  const forced = setTimeout(() => server.closeAllConnections(), 8_000);
  forced.unref();
  await stopped;
  clearInterval(idle);
  clearTimeout(forced);
}
