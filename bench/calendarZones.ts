/**
 * What `startsAt` and events in other zones cost a calendar listing: CPU per fresh window (a
 * query the per-write page cache has not seen) of `listEvents` over the 200 series of the
 * calendar case (bench/calendar.ts), in process, on a Berlin family. Each case runs 5 × 100
 * windows and keeps the best round (the machine is shared: the best round is the least
 * disturbed). Run with `--foreign=4` to write every 4th series in America/New_York.
 *
 *   npm run build && node dist/bench/calendarZones.js [--foreign=4]
 *
 * Results: docs/performance.md, "Event zones in listings".
 */
import { FamilyState, type CommandContext } from '../src/domain/shared/state.js';
import { seedRecords } from '../src/domain/areas.js';
import { createIdGenerator } from '../src/domain/shared/ids.js';
import { decideCreateEvent } from '../src/domain/calendar/events.js';
import { listEvents, type EventListQuery } from '../src/domain/calendar/listing.js';
import type { EventInput } from '../src/domain/calendar/types.js';
import { addDays } from '../src/domain/shared/time.js';
import { REACT, runner } from '../test/helpers/decide.js';
import { series } from './calendar.js';

const foreignArg = process.argv.find((a) => a.startsWith('--foreign='));
const foreign = foreignArg ? Number(foreignArg.slice('--foreign='.length)) : 0;

function familyState(): FamilyState {
  const at = '2026-01-01T00:00:00.000Z';
  const family = {
    id: 'fam_bench',
    slug: 'bench',
    name: 'Bench',
    timezone: 'Europe/Berlin',
    createdAt: at,
  };
  const state = new FamilyState(family);
  state.apply(seedRecords(family, at));
  let n = 0;
  const ctx = (): CommandContext => ({
    now: new Date(at),
    newId: createIdGenerator(
      () => Date.parse(at),
      () => new Uint8Array(7).fill(n++ % 256),
    ),
    caller: { keyId: 'bench', personId: null },
    family,
    publicUrl: 'http://bench.invalid',
    react: REACT,
  });
  const run = runner(state, ctx);
  for (let i = 0; i < 200; i++) {
    const body = JSON.parse(JSON.stringify(series(i))) as EventInput;
    if (foreign && i % foreign === 0) body.timeZone = 'America/New_York';
    run((s, c) => decideCreateEvent(s, body, c));
  }
  return state;
}

const CASES: Record<string, (i: number) => EventListQuery> = {
  '31-day window': (i) => ({
    from: addDays('2026-01-01', i),
    to: addDays('2026-01-31', i),
    limit: 50,
  }),
  '7-day window': (i) => ({
    from: addDays('2026-01-01', i),
    to: addDays('2026-01-07', i),
    limit: 50,
  }),
  '1-year window': (i) => ({
    from: addDays('2026-01-01', i),
    to: addDays('2026-12-31', i),
    limit: 50,
  }),
  '31-day window, excludeEnded': (i) => ({
    from: addDays('2026-03-01', i % 14),
    to: addDays('2026-03-31', i),
    limit: 50,
    excludeEnded: true,
  }),
};

const state = familyState();
const now = new Date('2026-03-15T12:00:00Z');
listEvents(state, { from: '2025-06-01', to: '2025-06-02', limit: 1 }, now); // the per-write caches
console.log(
  `200 series, Berlin family${foreign ? `, every ${foreign}th series in America/New_York` : ''}`,
);
for (const [label, query] of Object.entries(CASES)) {
  let best = Infinity;
  for (let round = 0; round < 5; round++) {
    const before = process.cpuUsage();
    for (let i = 0; i < 100; i++) listEvents(state, query(round * 100 + i), now);
    const used = process.cpuUsage(before);
    best = Math.min(best, (used.user + used.system) / 100);
  }
  console.log(`${label}: ${best.toFixed(0)} µs CPU per fresh window`);
}
