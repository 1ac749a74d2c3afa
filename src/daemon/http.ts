/**
 * The daemon's HTTP server: one node:http server for the doors' Koa app, with timeouts so slow
 * clients cannot hold connections forever, counting the requests being answered (webhooks'
 * share of the thread follows it); and its orderly stop.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
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
  const answering = new Map<Socket, number>();
  openSockets.set(server, answering);
  server.on('request', (req, res) => {
    requests.add(1);
    answering.set(req.socket, (answering.get(req.socket) ?? 0) + 1);
    res.once('close', () => {
      requests.add(-1);
      answering.set(req.socket, (answering.get(req.socket) ?? 1) - 1);
    });
  });
  server.on('connection', (socket) => {
    answering.set(socket, 0);
    socket.once('close', () => answering.delete(socket));
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

/**
 * Every open socket of the daemon's servers, with how many of its requests are being answered.
 * Node's closeIdleConnections leaves a socket that has not finished sending its first request —
 * a browser's preconnected socket, or one half through its headers — until a timeout (8 s),
 * so a stop with a browser on a page took that long: such sockets have nothing to finish.
 */
const openSockets = new WeakMap<Server, Map<Socket, number>>();

/** Ends the server's sockets that are not answering a request now. */
function closeUnanswered(server: Server): void {
  server.closeIdleConnections();
  for (const [socket, n] of openSockets.get(server) ?? []) if (n === 0) socket.destroy();
}

/** Stops accepting; sockets not being answered go now, busy ones once their request finishes. */
export async function stopHttp(server: Server): Promise<void> {
  const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
  // A keep-alive socket turns idle when its last response is sent; close those as they do.
  closeUnanswered(server);
  const idle = setInterval(() => closeUnanswered(server), 25);
  const forced = setTimeout(() => server.closeAllConnections(), 8_000);
  forced.unref();
  await stopped;
  clearInterval(idle);
  clearTimeout(forced);
}
