/**
 * An open-loop load: requests sent at a fixed rate over a pool of keep-alive connections,
 * whatever the server's pace. autocannon keeps each connection busy (a closed loop), so at 64
 * connections its latency is mostly the queue the load itself builds (p50 ≈ connections /
 * throughput, Little's law); this shows the latency a client sees when the server is not
 * saturated.
 *
 * A request's clock starts when the 1 ms scheduler finds it due (so timer granularity is not
 * charged to the server) and includes any wait for a free connection (so a server that falls
 * behind is). Raw sockets and a minimal HTTP/1.1 reader keep the client cheap: Node's http
 * client adds milliseconds of its own at the tail.
 */
import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { machineBusySeconds, type Round } from './load.js';

export interface PacedSpec {
  path: string;
  headers?: Record<string, string>;
}

interface Conn {
  socket: Socket;
  started: number;
  buffer: Buffer;
}

const HEADER_END = Buffer.from('\r\n\r\n');

export async function runPaced(
  baseUrl: string,
  spec: PacedSpec,
  opts: { rate: number; seconds: number; connections: number; serverCpu?: () => number },
): Promise<Round> {
  const url = new URL(baseUrl);
  const head = [
    `GET ${spec.path} HTTP/1.1`,
    `Host: ${url.host}`,
    'Connection: keep-alive',
    ...Object.entries(spec.headers ?? {}).map(([k, v]) => `${k}: ${v}`),
  ];
  const requestBytes = Buffer.from(`${head.join('\r\n')}\r\n\r\n`);
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  let errors = 0;
  let measuring = false;
  const idle: Conn[] = [];
  const waiting: number[] = [];

  const dispatch = (c: Conn, started: number) => {
    c.started = started;
    c.socket.write(requestBytes);
  };
  const finished = (c: Conn, status: number) => {
    if (measuring) {
      statusCodes[status] = (statusCodes[status] ?? 0) + 1;
      if (status >= 200 && status < 300) latencies.push(performance.now() - c.started);
    }
    const next = waiting.shift();
    if (next !== undefined) dispatch(c, next);
    else idle.push(c);
  };
  /** Consumes complete responses from the connection's buffer (Content-Length bodies only). */
  const read = (c: Conn) => {
    for (;;) {
      const end = c.buffer.indexOf(HEADER_END);
      if (end < 0) return;
      const headers = c.buffer.subarray(0, end).toString('latin1');
      const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(headers)?.[1] ?? 0);
      const total = end + 4 + length;
      if (c.buffer.length < total) return;
      const status = Number(headers.slice(9, 12));
      c.buffer = c.buffer.subarray(total);
      finished(c, status);
    }
  };

  const conns = await Promise.all(
    Array.from(
      { length: opts.connections },
      () =>
        new Promise<Conn>((resolve, reject) => {
          const socket = connect(Number(url.port), url.hostname, () => resolve(c));
          const c: Conn = { socket, started: 0, buffer: Buffer.alloc(0) };
          socket.setNoDelay(true);
          socket.on('data', (chunk: Buffer) => {
            c.buffer = c.buffer.length ? Buffer.concat([c.buffer, chunk]) : chunk;
            read(c);
          });
          socket.on('error', (err) => {
            errors++;
            reject(err);
          });
        }),
    ),
  );
  // One request on every connection first, so the pool is warm.
  await new Promise<void>((resolve) => {
    let left = conns.length;
    for (const c of conns) {
      c.socket.once('data', () => {
        if (--left === 0) resolve();
      });
      dispatch(c, performance.now());
    }
  });
  await new Promise((r) => setTimeout(r, 50));
  idle.length = 0;
  idle.push(...conns);
  waiting.length = 0;

  const cpu0 = opts.serverCpu?.();
  const loader0 = process.cpuUsage();
  const machine0 = machineBusySeconds();
  measuring = true;
  const start = performance.now();
  let sent = 0;
  await new Promise<void>((resolve) => {
    const tick = setInterval(() => {
      const now = performance.now();
      if (now - start >= opts.seconds * 1000) {
        clearInterval(tick);
        resolve();
        return;
      }
      const due = Math.floor(((now - start) / 1000) * opts.rate);
      for (; sent < due; sent++) {
        const c = idle.shift();
        if (c) dispatch(c, now);
        else waiting.push(now);
      }
    }, 1);
  });
  const until = performance.now() + 5_000;
  while ((idle.length < conns.length || waiting.length) && performance.now() < until)
    await new Promise((r) => setTimeout(r, 5));
  measuring = false;
  const loader = process.cpuUsage(loader0);
  const machineCpu = machineBusySeconds() - machine0;
  const serverCpu = cpu0 === undefined ? undefined : opts.serverCpu!() - cpu0;
  for (const c of conns) c.socket.destroy();
  const non2xx = Object.entries(statusCodes).reduce(
    (n, [code, count]) => (code.startsWith('2') ? n : n + count),
    0,
  );
  return {
    seconds: opts.seconds,
    ok: latencies.length,
    non2xx,
    errors: errors + waiting.length,
    statusCodes,
    latencies: Float64Array.from(latencies),
    loaderCpu: (loader.user + loader.system) / 1e6,
    machineCpu,
    ...(serverCpu !== undefined ? { serverCpu } : {}),
  };
}

/**
 * The open-loop schedule the paced cases share: calls `send(i, dueAt)` for i = 0 … rate·seconds−1
 * as each falls due (checked every millisecond), never waiting for earlier sends, then waits for
 * all of them. `dueAt` is when request i was due, on `performance.now()`'s clock.
 */
export async function openLoop(
  rate: number,
  seconds: number,
  send: (i: number, dueAt: number) => Promise<void>,
): Promise<number> {
  const inFlight = new Set<Promise<void>>();
  const t0 = performance.now();
  const total = rate * seconds;
  let sent = 0;
  while (sent < total) {
    const due = Math.min(total, Math.floor(((performance.now() - t0) * rate) / 1000));
    while (sent < due) {
      const p = send(sent, t0 + (sent * 1000) / rate).finally(() => inFlight.delete(p));
      inFlight.add(p);
      sent++;
    }
    await sleep(1);
  }
  await Promise.all(inFlight);
  return sent;
}
