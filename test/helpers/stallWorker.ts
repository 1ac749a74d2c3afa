/**
 * The other side of stall.ts, in a thread of its own: asks `/healthz` again and again on one
 * keep-alive connection while one (hostile) request is in flight on another, and reports each
 * health answer's latency with the request's answer. Sending the body and reading the answer
 * happen here, so the daemon's thread does only the daemon's work and the latencies are its own.
 */
import { Agent, request } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

interface Input {
  url: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Uint8Array | null;
}

const input = workerData as Input;

function send(
  agent: Agent,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: Uint8Array | null,
): Promise<{ status: number; headers: Record<string, string>; bytes: number; head: string }> {
  return new Promise((resolve, reject) => {
    const req = request(input.url + path, { method, headers, agent }, (res) => {
      let bytes = 0;
      const head: Buffer[] = [];
      let kept = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (kept < 65_536) {
          head.push(chunk);
          kept += chunk.length;
        }
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, String(v)])),
          bytes,
          head: Buffer.concat(head).toString('utf8').slice(0, 65_536),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body ?? undefined);
  });
}

const probeAgent = new Agent({ keepAlive: true, maxSockets: 1 });
const hostileAgent = new Agent({ keepAlive: false });
const latencies: number[] = [];
let done = false;

// The probe connection is opened and warm before the hostile request leaves.
for (let i = 0; i < 3; i++) await send(probeAgent, 'GET', '/healthz', {}, null);
const probing = (async () => {
  while (!done) {
    const t0 = performance.now();
    await send(probeAgent, 'GET', '/healthz', {}, null);
    latencies.push(performance.now() - t0);
  }
})();
const t0 = performance.now();
const answer = await send(hostileAgent, input.method, input.path, input.headers, input.body);
const elapsed = performance.now() - t0;
done = true;
await probing;
probeAgent.destroy();
parentPort!.postMessage({ answer, elapsed, latencies });
