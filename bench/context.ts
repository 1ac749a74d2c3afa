/**
 * The context search case (`--cases=context`): a family of 10,000 entries (chores, posted
 * through the batch endpoint) and 500 calendar events (one-offs over the next 60 days and
 * weekly or monthly series, some years old), searched with a rotating set of queries
 * (prefixes, a typo, accents, two words). Target: ≥ 0.5 × the bare-Koa floor, and p99 < 5 ms
 * at 2,000 req/s open loop.
 *
 * Besides the load rounds it times, with single requests: the first search (the family's
 * index is built), and a search right after a write (the index follows the write, and the
 * answer is computed rather than served from the per-write cache).
 */
import { performance } from 'node:perf_hooks';
import { postChores, type BenchFamily } from './seed.js';

export const CONTEXT_ENTRIES = 10_000;
export const CONTEXT_EVENTS = 500;

/** The queries the closed-loop case rotates through; the open-loop case uses the first. */
export const CONTEXT_QUERIES = [
  'plants',
  'dishw',
  'vacum living',
  'crème',
  'zoe',
  'dentist',
  'fold laundry',
  'kettle',
  'piano',
  'recycling',
  'swimming',
  'bathroom sink',
  'smoke alarm',
  'football',
  'parents evening',
  'birthday',
];

const EVENT_TITLES = [
  'Dentist – Zoë',
  'Piano lesson',
  'Football practice',
  'Parents evening',
  'Birthday party',
  'Swimming club',
  'Car service',
  'Book club',
  'Vet appointment',
  'School play',
  'Grandma visits',
  'Yoga class',
];
const PLACES = ['Town hall', 'Community centre', 'Smile Clinic', 'Leisure centre', ''];

function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** The i-th event: one-offs over the next 60 days, weekly series since 2022, monthly series. */
export function contextEvent(i: number, today: Date): Record<string, unknown> {
  const title = `${EVENT_TITLES[i % EVENT_TITLES.length]} ${i}`;
  const where = PLACES[i % PLACES.length];
  const base = {
    title,
    time: `${String(8 + (i % 12)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`,
    ...(where ? { where } : {}),
    note: i % 3 ? 'Bring the blue folder' : 'Ask Zoë first',
  };
  switch (i % 4) {
    case 0:
    case 1:
      return { ...base, date: isoDay(new Date(today.getTime() + (i % 60) * 86_400_000)) };
    case 2:
      return { ...base, date: `2022-0${1 + (i % 9)}-1${i % 10}`, repeatFrequency: 'weekly' };
    default:
      return { ...base, date: `2025-0${1 + (i % 9)}-0${1 + (i % 9)}`, repeatFrequency: 'monthly' };
  }
}

export async function seedContext(baseUrl: string, family: BenchFamily): Promise<void> {
  await postChores(baseUrl, family, CONTEXT_ENTRIES);
  const url = `${baseUrl}/api/v1/families/${family.slug}/calendar/events`;
  const today = new Date();
  const queue = Array.from({ length: CONTEXT_EVENTS }, (_, i) => i);
  const worker = async () => {
    for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': family.apiKey },
        body: JSON.stringify(contextEvent(i, today)),
      });
      if (res.status !== 201)
        throw new Error(`seeding events: POST answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer().catch(() => undefined);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
}

export function contextPath(slug: string, query: string): string {
  return `/api/v1/families/${slug}/context?query=${encodeURIComponent(query)}`;
}

async function timed(url: string, init: RequestInit): Promise<{ ms: number; status: number }> {
  const t = performance.now();
  const res = await fetch(url, init);
  await res.arrayBuffer();
  return { ms: performance.now() - t, status: res.status };
}

/**
 * Single-request timings: the first search of the family (index build), then `rounds` times
 * a write followed by a search of a query not asked since that write, and a write followed
 * by GET /people as the baseline.
 */
export async function contextColdTimings(
  baseUrl: string,
  family: BenchFamily,
  rounds = 40,
): Promise<{ firstMs: number; afterWriteMs: number[]; baselineMs: number[] }> {
  const headers = { 'x-api-key': family.apiKey };
  const first = await timed(baseUrl + contextPath(family.slug, 'kettle descale'), { headers });
  if (first.status !== 200) throw new Error(`GET context answered ${first.status}`);
  const afterWriteMs: number[] = [];
  const baselineMs: number[] = [];
  const entryUrl = `${baseUrl}/api/v1/families/${family.slug}/trackers/chores/entries`;
  for (let i = 0; i < rounds; i++) {
    const w = await fetch(entryUrl, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ title: `Cold check ${i}`, data: { notes: 'Use the blue bucket' } }),
    });
    await w.arrayBuffer();
    const r = await timed(
      baseUrl + contextPath(family.slug, CONTEXT_QUERIES[i % CONTEXT_QUERIES.length]),
      { headers },
    );
    if (r.status !== 200) throw new Error(`GET context answered ${r.status}`);
    afterWriteMs.push(r.ms);
    // The same write, then a read that costs next to nothing (one person listed): what the
    // client, HTTP and the write's aftermath add to any read.
    const w2 = await fetch(entryUrl, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ title: `Baseline ${i}` }),
    });
    await w2.arrayBuffer();
    baselineMs.push(
      (await timed(`${baseUrl}/api/v1/families/${family.slug}/people`, { headers })).ms,
    );
  }
  return { firstMs: first.ms, afterWriteMs, baselineMs };
}
