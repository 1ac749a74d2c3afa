/**
 * A real HTTP server on 127.0.0.1 standing in for an outside service. It counts TCP connections
 * (so a test can show a refused call never reached it) and records the requests it answered.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export interface LocalService {
  port: number;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  connections: number;
  requests: SeenRequest[];
  close(): Promise<void>;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

export async function startLocalService(handler: Handler): Promise<LocalService> {
  const sockets = new Set<Socket>();
  const state = { connections: 0, requests: [] as SeenRequest[] };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      state.requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body,
      });
      handler(req, res, body);
    });
  });
  server.on('connection', (s: Socket) => {
    state.connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    get connections() {
      return state.connections;
    },
    get requests() {
      return state.requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        // Handlers that never answer leave sockets open; end them so close() returns.
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
