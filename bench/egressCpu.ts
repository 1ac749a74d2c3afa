/**
 * CPU per egress call against a local keep-alive server (`node dist/bench/egressCpu.js [calls]
 * [concurrency]`): the client's own CPU (this process), the server in a child process so its
 * work is not counted. The webhooks case sends small POSTs, so this sends small signed-sized
 * POSTs answered with 204 — the figure docs/webhooks.md and docs/egress.md quote.
 */
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { createEgress } from '../src/integrations/egress.js';

if (process.argv[2] === 'server') {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(204);
      res.end();
    });
  });
  server.keepAliveTimeout = 5_000;
  server.listen(0, '127.0.0.1', () =>
    process.send!({ port: (server.address() as { port: number }).port }),
  );
} else {
  const calls = Number(process.argv[2] ?? 20_000);
  const concurrency = Number(process.argv[3] ?? 64);
  const child = fork(fileURLToPath(import.meta.url), ['server'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve) =>
    child.once('message', (m: { port: number }) => resolve(m.port)),
  );
  const egress = createEgress();
  const body = JSON.stringify({
    id: 'event_01kaq5m39z8y7x6w5v4t',
    type: 'tracker.entry.created',
    data: { object: { title: 'x'.repeat(300) } },
  });
  const one = () =>
    egress.request({
      url: `http://127.0.0.1:${port}/hook`,
      method: 'POST',
      body,
      policy: 'any',
      timeoutMs: 15_000,
      maxBytes: 65_536,
      headers: {
        'content-type': 'application/json',
        'webhook-id': 'event_1',
        'webhook-timestamp': '1',
        'webhook-signature': 'v1,abc',
      },
    });
  const run = async (n: number) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next++ < n) await one();
      }),
    );
  };
  await run(2_000); // warm-up
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await run(calls);
  const cpu = process.cpuUsage(c0);
  const wall = performance.now() - t0;
  console.log(
    `${calls} POSTs, ${concurrency} at once: ${((cpu.user + cpu.system) / calls).toFixed(0)} µs client CPU per call, ${Math.round((calls * 1000) / wall)} calls/s`,
  );
  child.kill();
}
