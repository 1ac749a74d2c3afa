/**
 * The touch display's actions (docs/performance.md, "Family display actions"):
 * `npm run build && node dist/bench/displayActions.js`.
 *
 * 1. A fresh LMDB folder with one family; the daemon (bench/daemon.ts) in its own process,
 *    `display.actionsPerMinute` and `rateLimit.publicPerMinute` raised out of the way.
 * 2. An interactive display with a chore, a few events and a groceries list.
 * 3. Taps one after another (done, undone, …; each with its own Idempotency-Key): the time from
 *    request to 200 (durable, answer kept with the change), then the same keys again (replays).
 * 4. Tap to screen: the display's own stream open, a tap every 300 ms; the time from sending
 *    the tap to the `display` event that shows it (the stream gathers a burst for 150 ms by
 *    design, so that is its floor).
 * 5. The page's weight: the HTML with its inline script and style, and the JSON content.
 *
 * Options: --taps=300 --screen-taps=40
 */
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Child, daemonNodeFlags } from './child.js';
import { createFamilies } from './seed.js';

const argv = process.argv.slice(2);
const option = (name: string, fallback: string) =>
  argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const TAPS = Number(option('taps', '300'));
const SCREEN_TAPS = Number(option('screen-taps', '40'));
const log = (s: string) => process.stdout.write(`${s}\n`);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (x: number) => `${x.toFixed(1)} ms`;

async function call(
  url: string,
  method: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: any; bytes: number }> {
  const res = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return {
    status: res.status,
    json: text.startsWith('{') ? JSON.parse(text) : null,
    bytes: Buffer.byteLength(text),
  };
}

/** The display's script: the modules its page names and they import, and their bytes. */
async function scriptWeight(
  base: string,
  page: string,
): Promise<{ modules: number; bytes: number }> {
  const entry = /<script type="module" src="([^"]+)"/.exec(page)?.[1];
  const todo = entry ? [new URL(entry, base).href] : [];
  const seen = new Set<string>();
  let bytes = 0;
  while (todo.length) {
    const url = todo.shift()!;
    if (seen.has(url)) continue;
    seen.add(url);
    const text = await (await fetch(url)).text();
    bytes += Buffer.byteLength(text);
    for (const m of text.matchAll(/from '(\.{1,2}\/[^']+)'/g)) todo.push(new URL(m[1], url).href);
  }
  return { modules: seen.size, bytes };
}

/** The display's stream: calls `onContent` with each `display` event's content. */
function follow(url: string, onContent: (c: any) => void): () => void {
  const req = request(url, { headers: { accept: 'text/event-stream' } }, (res) => {
    res.setEncoding('utf8');
    let buffer = '';
    res.on('data', (chunk: string) => {
      buffer += chunk;
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block.split('\n').find((l) => l.startsWith('data: '));
        if (block.includes('event: display') && data) onContent(JSON.parse(data.slice(6)));
      }
    });
  });
  req.end();
  return () => req.destroy();
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'household-bench-display-'));
  const [family] = await createFamilies(dataDir, ['bench']);
  const daemon = await Child.start(new URL('./daemon.js', import.meta.url).pathname, {
    execArgv: daemonNodeFlags(),
    env: {
      BENCH_DAEMON_OVERRIDES: JSON.stringify({
        storage: { dataDir },
        server: { host: '127.0.0.1', port: 0 },
        log: { level: 'warn' },
        families: { bootstrapSlug: null },
        display: { actionsPerMinute: 10_000 },
        rateLimit: { publicPerMinute: 1_000_000 },
      }),
    },
  });
  try {
    const api = `${daemon.url}/api/v1/families/bench`;
    const key = { 'x-api-key': family.apiKey };
    const chore = (
      await call(
        `${api}/trackers/chores/entries`,
        'POST',
        { title: 'Bins out', data: { due: new Date().toISOString().slice(0, 10) } },
        key,
      )
    ).json.entry.id;
    for (const title of ['Milk', 'Bread', 'Apples'])
      await call(`${api}/trackers/groceries/entries`, 'POST', { title }, key);
    for (const [title, time] of [
      ['School run', '08:15'],
      ['Swimming', '17:00'],
      ['Piano', '19:00'],
    ])
      await call(
        `${api}/calendar/events`,
        'POST',
        { title, date: new Date().toISOString().slice(0, 10), time, durationMinutes: 45 },
        key,
      );
    const made = (
      await call(`${api}/displays`, 'POST', { name: 'Kitchen', interactive: true }, key)
    ).json;
    const actions = `${daemon.url}/display/${made.token}/actions`;
    const tap = (i: number) => ({
      action: i % 2 ? 'undone' : 'done',
      collection: 'chores',
      entryId: chore,
    });

    // 3. Taps, one after another, then the same keys again.
    const taken: number[] = [];
    for (let i = 0; i < TAPS; i++) {
      const t0 = performance.now();
      const r = await call(actions, 'POST', tap(i), { 'idempotency-key': `tap-${i}` });
      taken.push(performance.now() - t0);
      if (r.status !== 200) throw new Error(`tap ${i}: ${r.status} ${JSON.stringify(r.json)}`);
    }
    const replayed: number[] = [];
    for (let i = 0; i < TAPS; i++) {
      const t0 = performance.now();
      const r = await call(actions, 'POST', tap(i), { 'idempotency-key': `tap-${i}` });
      replayed.push(performance.now() - t0);
      if (r.status !== 200) throw new Error(`replay ${i}: ${r.status}`);
    }

    // 4. Tap to screen.
    const seen: { at: number; done: boolean }[] = [];
    const stop = follow(`${daemon.url}/display/${made.token}/events`, (c) =>
      seen.push({ at: performance.now(), done: c.chores.done.some((x: any) => x.id === chore) }),
    );
    await sleep(500);
    const toScreen: number[] = [];
    for (let i = 0; i < SCREEN_TAPS; i++) {
      const t0 = performance.now();
      const done = i % 2 === 0;
      await call(actions, 'POST', tap(i), { 'idempotency-key': `screen-${i}` });
      for (let n = 0; n < 100; n++) {
        const hit = seen.find((s) => s.at >= t0 && s.done === done);
        if (hit) {
          toScreen.push(hit.at - t0);
          break;
        }
        await sleep(10);
      }
      await sleep(300);
    }
    stop();

    // 5. The page's weight.
    const html = await call(`${daemon.url}/display/${made.token}`, 'GET');
    const page = await (await fetch(`${daemon.url}/display/${made.token}`)).text();
    const script = await scriptWeight(daemon.url, page);
    const json = await call(`${daemon.url}/display/${made.token}`, 'GET', undefined, {
      accept: 'application/json',
    });

    log(
      `Measured ${new Date().toISOString().slice(0, 16)}Z on ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), Node ${process.version}.`,
    );
    log('');
    log('| what | n | p50 | p99 | max |');
    log('|---|---:|---:|---:|---:|');
    log(
      `| tap → 200 (durable) | ${taken.length} | ${ms(pct(taken, 50))} | ${ms(pct(taken, 99))} | ${ms(Math.max(...taken))} |`,
    );
    log(
      `| the same tap again (replayed) | ${replayed.length} | ${ms(pct(replayed, 50))} | ${ms(pct(replayed, 99))} | ${ms(Math.max(...replayed))} |`,
    );
    log(
      `| tap → the display's stream shows it | ${toScreen.length} | ${ms(pct(toScreen, 50))} | ${ms(pct(toScreen, 99))} | ${ms(Math.max(...toScreen))} |`,
    );
    log('');
    log(
      `Page: ${html.bytes.toLocaleString('en')} bytes of HTML with its style, first content and words inline; ` +
        `its script ${script.bytes.toLocaleString('en')} bytes in ${script.modules} modules (kept a year by the browser); ` +
        `content as JSON ${json.bytes.toLocaleString('en')} bytes.`,
    );
  } finally {
    await daemon.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
