/**
 * What the hardening of every door costs per request, measured in-process (docs/performance.md,
 * "Limits and log scrubbing"): the logger's credential scrub of one request log line (with and
 * without a credential in it), one count in the one limiter, and the inner-call proof an MCP
 * tool call carries. `npm run build && node dist/bench/doorCosts.js`
 */
import { redactCredentials } from '../src/logger.js';
import { DoorLimits } from '../src/door/limits.js';
import { InnerCalls } from '../src/door/credentials.js';

const LINE = `${JSON.stringify({
  level: 30,
  time: '2026-11-22T08:30:00.000Z',
  service: 'household-organizer',
  requestId: '0b0e8f2e-3c1a-4c55-9b8e-6a3f1d2c4b5a',
  method: 'GET',
  route: '/api/v1/families/:familySlug/trackers/:collectionKey/entries',
  status: 200,
  durationMs: 1.23,
  family: 'home',
  keyId: 'AbCdEfGhIjKl',
  ip: '127.0.0.1',
  userAgent: 'HomeAssistant/2026.11 aiohttp/3.11',
  msg: 'request',
})}\n`;
const WITH_TOKEN = LINE.replace(
  '"route":"/api/v1/families/:familySlug/trackers/:collectionKey/entries"',
  '"route":null,"path":"/display/dsp_0123456789abcdefghijABCDEFGHIJkl/x"',
);

let sink = 0;
function nsPer(fn: () => number, n = 1_000_000): number {
  for (let i = 0; i < n / 10; i++) sink += fn();
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) sink += fn();
  return Number(process.hrtime.bigint() - start) / n;
}

const limits = new DoorLimits({ perMinute: 1e9, publicPerMinute: 1e9 }, Date.now);
const key = 'hk_AbCdEfGhIjKl_0123456789abcdefghijABCDEFGHIJ';
const inner = new InnerCalls();
const proof = inner.proof(key);
const rows: [string, number][] = [
  ['scrub a request log line (no credential)', nsPer(() => redactCredentials(LINE).length)],
  ['scrub a line with a display token', nsPer(() => redactCredentials(WITH_TOKEN).length)],
  [
    'count one request of a key',
    nsPer(() => limits.credential({ kind: 'key', keyId: 'AbCdEfGhIjKl' }).remaining),
  ],
  ['make the inner-call proof (HMAC-SHA256)', nsPer(() => inner.proof(key).length, 200_000)],
  ['check the inner-call proof', nsPer(() => (inner.verify(key, proof) ? 1 : 0), 200_000)],
];
for (const [what, ns] of rows) console.log(`${what.padEnd(44)} ${(ns / 1000).toFixed(2)} µs`);
if (sink === 42) console.log('');
