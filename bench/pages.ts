/**
 * What a household page costs beside the REST request it wraps (docs/performance.md, "The
 * household pages"): the same list of people read 300 times as `GET /api/v1/families/home/people`
 * and as the `/people` page (session check, one loopback REST call, HTML), sequentially, on a
 * daemon of its own. `npm run build && node dist/bench/pages.js`
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { startDaemon } from '../src/server.js';
import { createLogger } from '../src/logger.js';
import { createFamily } from '../src/family/admin.js';
import { createIdGenerator } from '../src/domain/shared/ids.js';
import { randomBytes } from 'node:crypto';

const N = 300;

async function timed(url: string, headers: Record<string, string>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < N + 30; i++) {
    const t = process.hrtime.bigint();
    const res = await fetch(url, { headers });
    await res.text();
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
    if (i >= 30) out.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return out.sort((a, b) => a - b);
}

const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor(xs.length * p))];

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-pages-'));
  const config = loadConfig({
    env: {},
    overrides: {
      server: { host: '127.0.0.1', port: 0 },
      storage: { dataDir: dir },
      log: { level: 'silent' },
      families: { bootstrapSlug: null },
      rateLimit: { perMinute: 1_000_000, publicPerMinute: 1_000_000 },
    },
  });
  const d = await startDaemon(config, { logger: createLogger('silent') });
  try {
    const made = await createFamily(
      d.store,
      { slug: 'home', name: 'Home' },
      {
        now: new Date(),
        newId: createIdGenerator(Date.now, (n) => randomBytes(n)),
        defaultTimezone: 'UTC',
        withKey: 'bench',
      },
    );
    const key = made.apiKey!;
    for (const name of ['Ana', 'Bo', 'Cleo', 'Dan'])
      await fetch(`${d.url}/api/v1/families/home/people`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      });
    const form = await fetch(`${d.url}/signin`);
    const token = /ho_form=([^;]+)/.exec(form.headers.get('set-cookie') ?? '')![1];
    const signed = await fetch(`${d.url}/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `ho_form=${token}` },
      body: new URLSearchParams({ csrf: token, key }),
      redirect: 'manual',
    });
    const session = /ho_session=([^;]+)/.exec(signed.headers.get('set-cookie') ?? '')![1];
    const rest = await timed(`${d.url}/api/v1/families/home/people`, { 'x-api-key': key });
    const page = await timed(`${d.url}/people`, { cookie: `ho_session=${session}` });
    for (const [name, xs] of [
      ['REST GET …/people', rest],
      ['page GET /people', page],
    ] as const)
      console.log(
        `${name}: median ${pct(xs, 0.5).toFixed(2)} ms, p95 ${pct(xs, 0.95).toFixed(2)} ms`,
      );
  } finally {
    await d.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
