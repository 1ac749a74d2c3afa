/**
 * calendar-query served from the occurrence index (src/domain/calendar/occurrenceIndex.ts),
 * through the real server: after each kind of write (a series PUT in three zones, one created
 * through REST, one occurrence moved, one removed, a series retimed, an event deleted, the
 * family's zone changed, one made after its months were asked about), REPORTs over random windows never asked before answer exactly the
 * objects and occurrences the lazy expansion of the daemon's own records gives (series.ts,
 * occurrencesFrom): with `expand` each occurrence's start, title and status, without it the
 * objects that have one in the window. A window asked again is answered the same from the answer
 * kept on its second ask (src/caldav/answerCache.ts), and anew after a write.
 */
import { expect } from 'chai';
import { keptSize } from '../../src/caldav/answerCache.js';
import { objectsOf, findCollection } from '../../src/caldav/objects.js';
import { occurrenceIndexSize } from '../../src/domain/calendar/occurrenceIndex.js';
import { occurrencesFrom, type InstantRange } from '../../src/domain/calendar/series.js';
import type { EventRecord } from '../../src/domain/calendar/types.js';
import type { FamilyState } from '../../src/domain/shared/state.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { Dav, calendarData, hrefs, ics, lines } from './dav.js';

const CAL = '/dav/home/calendar/';

/** `YYYYMMDDTHHMMSSZ` of an instant. */
const utc = (ms: number) => new Date(ms).toISOString().replace(/[-:]|\.\d{3}/g, '');

/** One occurrence as an answer shows it: its start (a date all day, else the UTC instant), title, status. */
type Seen = string;

describe('REPORT calendar-query with windows never asked before (the occurrence index)', () => {
  let server: TestServer;
  let dav: Dav;
  let seed = 11;
  const int = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  before(async () => {
    server = await startTestServer({ timezone: 'Europe/Berlin' });
    dav = new Dav(server, server.slug, server.apiKey);
  });
  after(() => server?.close());

  async function readState<T>(fn: (state: FamilyState) => T): Promise<T> {
    const actor = await server.daemon.registry.get(server.daemon.store.getFamilyBySlug('home')!);
    return actor.read(fn);
  }

  /** What the lazy expansion of the daemon's records answers for a window, by object name. */
  function expected(r: InstantRange): Promise<Map<string, Seen[]>> {
    return readState((state) => {
      const out = new Map<string, Seen[]>();
      const col = findCollection(state, 'calendar')!;
      for (const [name, obj] of objectsOf(state, col, new Date()).byName) {
        const ev = obj.entry as EventRecord;
        const seen = [...occurrencesFrom(ev, state.family.timezone, r)].map((o) => {
          const allDay = o.data.allDay === true || o.data.time === undefined;
          const start = allDay ? o.data.date.replaceAll('-', '') : utc(o.start);
          return `${start} ${o.title} ${o.status === 'archived' ? 'CANCELLED' : 'CONFIRMED'}`;
        });
        if (seen.length) out.set(name, seen);
      }
      return out;
    });
  }

  /** What the daemon answers for a window, by object name; with expand, each occurrence. */
  async function answered(r: InstantRange, expand: boolean): Promise<Map<string, Seen[]>> {
    const range: [string, string] = [utc(r.start), utc(r.end)];
    const res = await dav.query(CAL, 'VEVENT', range, expand ? range : undefined);
    expect(res.status, res.text).to.equal(207);
    const names = hrefs(res.text).map((h) => decodeURIComponent(h.slice(CAL.length, -4)));
    const texts = calendarData(res.text);
    const out = new Map<string, Seen[]>();
    names.forEach((name, i) => {
      const ls = lines(texts[i]);
      if (!expand) {
        out.set(name, []);
        return;
      }
      const seen: Seen[] = [];
      let start = '';
      let title = '';
      for (const l of ls) {
        if (l.startsWith('DTSTART')) start = l.slice(l.indexOf(':') + 1);
        if (l.startsWith('SUMMARY:')) title = l.slice('SUMMARY:'.length);
        if (l.startsWith('STATUS:')) seen.push(`${start} ${title} ${l.slice('STATUS:'.length)}`);
      }
      out.set(name, seen);
    });
    return out;
  }

  /** Random windows (a quarter hour to three months, anywhere in 2026), each asked once. */
  async function compareRandomWindows(count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      const start = Date.UTC(2026, 0, 1) + int(365 * 96) * 15 * 60_000;
      const length = [15 * 60_000, 86_400_000, 7 * 86_400_000, 31 * 86_400_000, 92 * 86_400_000][
        int(5)
      ];
      const r = { start, end: start + length };
      const want = await expected(r);
      const label = `${utc(r.start)} – ${utc(r.end)}`;
      expect(await answered(r, true), `expanded ${label}`).to.deep.equal(want);
      const alone = await answered(r, false);
      expect([...alone.keys()].sort(), `time-range ${label}`).to.deep.equal(
        [...want.keys()].sort(),
      );
    }
  }

  async function put(name: string, ...event: string[]): Promise<void> {
    const r = await dav.put(
      CAL + name,
      ics('PRODID:-//test//EN', 'BEGIN:VEVENT', ...event, 'END:VEVENT'),
    );
    expect(r.status, r.text).to.equal(201);
  }

  /** The REST id of an object made through CalDAV. */
  async function idOf(name: string): Promise<string> {
    return readState(
      (state) =>
        objectsOf(state, findCollection(state, 'calendar')!, new Date()).byName.get(name)!.entry.id,
    );
  }

  it('answers what the lazy expansion gives after series are written in three zones and through REST', async () => {
    await put(
      'berlin.ics',
      'UID:berlin@test',
      'DTSTAMP:20260101T000000Z',
      'DTSTART;TZID=Europe/Berlin:20260105T073000',
      'DTEND;TZID=Europe/Berlin:20260105T081500',
      'RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR',
      'SUMMARY:School run',
    );
    await put(
      'new-york.ics',
      'UID:ny@test',
      'DTSTAMP:20260101T000000Z',
      'DTSTART;TZID=America/New_York:20260102T220000',
      'DTEND;TZID=America/New_York:20260102T233000',
      'RRULE:FREQ=DAILY;INTERVAL=3',
      'SUMMARY:Call grandma',
    );
    await put(
      'utc.ics',
      'UID:utc@test',
      'DTSTAMP:20260101T000000Z',
      'DTSTART:20260115T120000Z',
      'DTEND:20260115T130000Z',
      'RRULE:FREQ=MONTHLY',
      'SUMMARY:Rent',
    );
    await put(
      'holiday.ics',
      'UID:holiday@test',
      'DTSTAMP:20260101T000000Z',
      'DTSTART;VALUE=DATE:20260330',
      'DTEND;VALUE=DATE:20260404',
      'SUMMARY:Easter holiday',
    );
    const rest = await server.api.post('/calendar/events', {
      title: 'Swimming',
      date: '2026-01-10',
      time: '09:00',
      endTime: '10:00',
      repeatFrequency: 'weekends',
      timeZone: 'Asia/Tokyo',
    });
    expect(rest.status, rest.text).to.equal(201);
    await compareRandomWindows(12);
    const size = await readState((state) => occurrenceIndexSize(state));
    expect(size.buckets, 'the windows were served from month buckets').to.be.greaterThan(0);
  });

  it('answers what the lazy expansion gives after one occurrence is moved and another removed', async () => {
    const id = await idOf('berlin');
    const moved = await server.api.patch(`/calendar/events/${id}`, {
      editScope: 'occurrence',
      occurrenceDate: '2026-03-09',
      date: '2026-03-10',
      time: '18:00',
      endTime: '19:00',
      title: 'School run (Tuesday)',
    });
    expect(moved.status, moved.text).to.equal(200);
    const removed = await server.api.delete(
      `/calendar/events/${await idOf('new-york')}?editScope=occurrence&occurrenceDate=2026-03-12`,
    );
    expect(removed.status, removed.text).to.equal(200);
    const cancelled = await server.api.patch(`/calendar/events/${id}`, {
      editScope: 'occurrence',
      occurrenceDate: '2026-03-13',
      status: 'archived',
    });
    expect(cancelled.status, cancelled.text).to.equal(200);
    // One made after the months it falls in were asked about: they must take it in.
    await put(
      'dentist.ics',
      'UID:dentist@test',
      'DTSTAMP:20260101T000000Z',
      'DTSTART;TZID=Europe/Berlin:20260210T083000',
      'DTEND;TZID=Europe/Berlin:20260210T091500',
      'RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU',
      'SUMMARY:Dentist',
    );
    await compareRandomWindows(10);
  });

  it('answers what the lazy expansion gives after a series is retimed and an event deleted', async () => {
    const retimed = await server.api.patch(`/calendar/events/${await idOf('utc')}`, {
      time: '06:00',
      endTime: '06:30',
    });
    expect(retimed.status, retimed.text).to.equal(200);
    const gone = await dav.request('DELETE', `${CAL}holiday.ics`);
    expect(gone.status, gone.text).to.equal(204);
    await compareRandomWindows(10);
  });

  it('answers a window asked three times the same each time, and the first ask after a write anew', async () => {
    const r = { start: Date.UTC(2026, 2, 3, 7), end: Date.UTC(2026, 2, 17, 7) };
    const want = await expected(r);
    // The first ask is computed, the second computed and kept, the third read from what was kept.
    const kept: number[] = [];
    for (let i = 0; i < 3; i++) {
      expect(await answered(r, true), `ask ${i + 1}`).to.deep.equal(want);
      kept.push(await readState((state) => keptSize(state).answers));
    }
    expect(kept).to.deep.equal([0, 1, 1]);
    await put(
      'asked-again.ics',
      'UID:asked-again',
      'DTSTAMP:20260101T000000Z',
      'DTSTART;TZID=Europe/Berlin:20260305T180000',
      'DTEND;TZID=Europe/Berlin:20260305T190000',
      'RRULE:FREQ=DAILY;COUNT=3',
      'SUMMARY:Asked again',
    );
    const after = await expected(r);
    expect(after.get('asked-again')).to.have.length(3);
    expect(await readState((state) => keptSize(state).answers)).to.equal(0);
    for (let i = 0; i < 3; i++)
      expect(await answered(r, true), `ask ${i + 1} after the write`).to.deep.equal(after);
  });

  it('answers what the lazy expansion gives after the family moves to another zone', async () => {
    const moved = await server.api.patch('', { timezone: 'America/Los_Angeles' });
    expect(moved.status, moved.text).to.equal(200);
    const made = await server.api.post('/calendar/events', {
      title: 'Dinner',
      date: '2026-02-01',
      time: '19:00',
      repeatFrequency: 'daily',
    });
    expect(made.status, made.text).to.equal(201);
    await compareRandomWindows(12);
  });
});
