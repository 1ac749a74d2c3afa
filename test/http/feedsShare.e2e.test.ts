import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { fixture, startIcsServer, type IcsServer } from '../helpers/fakes/icsServer.js';
import { independentExpansion, MISSING, python, sorted, type Row } from '../feeds/independent.js';

// A calendar share that selects external feeds (`sourceIds`) re-exports their events: the public
// ICS must mean the same occurrences as the listing, which an independent expansion of the
// shared file checks.

describe('calendar shares of external feeds', () => {
  let server: TestServer;
  let feeds: IcsServer;
  let dir: string;
  const source: Record<string, string> = {};
  before(async () => {
    if (!python) console.log(`      (${MISSING})`);
    dir = mkdtempSync(join(tmpdir(), 'household-share-'));
    server = await startTestServer({ timezone: 'Europe/Berlin' });
    feeds = await startIcsServer();
    for (const [name, file] of [
      ['Work', 'outlook_exchange.ics'],
      ['Since 2020', 'series_from_2020.ics'],
      ['Moved', 'three_events_one_edited.ics'],
      ['Lab', 'issue_62_moved_event.ics'],
    ]) {
      feeds.set(`/${file}`, { body: fixture(file) });
      const r = await server.api.post('/calendar/external', { name, url: feeds.url(`/${file}`) });
      expect(r.status, JSON.stringify(r.body)).to.equal(201);
      source[name] = r.body.sourceId;
    }
    await server.api.post('/calendar/events', {
      title: 'Dentist',
      date: '2026-01-07',
      time: '10:00',
    });
  });
  after(async () => {
    await server.close();
    await feeds.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function share(body: Record<string, unknown>): Promise<string> {
    const r = await server.api.post('/calendar/shares', { name: 'Shared', ...body });
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    const ics = await server.http.get(new URL(r.body.url).pathname);
    expect(ics.status).to.equal(200);
    return ics.text;
  }

  async function listedFrom(sourceId: string, from: string, to: string): Promise<Row[]> {
    const out: Row[] = [];
    let cursor = '';
    for (;;) {
      const r = (
        await server.api.get(
          `/calendar/events?from=${from}&to=${to}&limit=50${cursor ? `&cursor=${cursor}` : ''}`,
        )
      ).body;
      for (const e of r.events) {
        if (e.sourceId !== sourceId || e.data.date < from || e.data.date > to) continue;
        out.push({
          title: e.title,
          date: e.data.date,
          time: e.data.time,
          endDate: e.data.endDate ?? e.data.date,
          endTime: e.data.endTime,
        });
      }
      if (!r.nextCursor) return out;
      cursor = r.nextCursor;
    }
  }

  it("takes sourceIds and shares only those feeds' events", async () => {
    const text = await share({ sourceIds: [source.Work] });
    expect(text)
      .to.contain('SUMMARY:Team meeting')
      .and.contain('SUMMARY:Call with the New York office');
    expect(text).not.to.contain('Dentist');
    expect(text).not.to.contain('Morning stand-up');
    // The feed's own rule and zone: RRULE with COUNT, EXDATEs and the moved occurrence in W. Europe time (Europe/Berlin).
    expect(text).to.contain('RRULE:FREQ=WEEKLY;COUNT=8;BYDAY=MO');
    expect(text).to.contain('EXDATE;TZID=Europe/Berlin:20260119T093000');
    expect(text).to.contain('RECURRENCE-ID;TZID=Europe/Berlin:20260202T093000');
    const list = (await server.api.get('/calendar/shares')).body.shares;
    expect(list.at(-1).sourceIds).to.deep.equal([source.Work]);
  });

  for (const [name, from, to] of [
    ['Work', '2026-01-01', '2026-03-31'],
    ['Since 2020', '2026-11-22', '2026-12-01'],
    ['Moved', '2019-03-15', '2019-03-25'],
    ['Lab', '2021-11-01', '2022-06-30'],
  ] as const) {
    it(`re-exports ${name} so that its window (${from} … ${to}) expands to what the listing shows`, async function () {
      if (!python) this.skip();
      const text = await share({ sourceIds: [source[name]] });
      const file = join(dir, `${name}.ics`);
      writeFileSync(file, text);
      const theirs = sorted(independentExpansion(file, from, to, 'Europe/Berlin'));
      const ours = sorted(await listedFrom(source[name], from, to));
      expect(ours.length).to.be.greaterThan(0);
      expect(theirs).to.deep.equal(ours);
    });
  }

  it("writes a family's overlays too: an archived occurrence of a feed series is CANCELLED in the share", async () => {
    const standup = (
      await server.api.get('/calendar/events?from=2026-11-23&to=2026-11-23')
    ).body.events.find((e: any) => e.title === 'Morning stand-up');
    const r = await server.api.patch(`/calendar/events/${standup.id}`, {
      editScope: 'occurrence',
      occurrenceDate: '2026-11-23',
      status: 'archived',
    });
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    const text = await share({ sourceIds: [source['Since 2020']] });
    const override = text
      .split('BEGIN:VEVENT')
      .find((b) => b.includes('RECURRENCE-ID;TZID=Europe/Berlin:20261123T091500'));
    expect(override).to.contain('STATUS:CANCELLED');
    if (python) {
      const file = join(dir, 'archived.ics');
      writeFileSync(file, text);
      const days = independentExpansion(file, '2026-11-22', '2026-11-24', 'Europe/Berlin')
        .filter((o) => o.title === 'Morning stand-up')
        .map((o) => o.date);
      expect(days).to.deep.equal(['2026-11-22', '2026-11-24']);
    }
  });

  it("writes a series in its own zone with that zone's VTIMEZONE when the family lives elsewhere", async function () {
    const ny = await server.family('new-york', { timezone: 'America/New_York' });
    const linked = await ny.client.post('/calendar/external', {
      name: 'Since 2020',
      url: feeds.url('/series_from_2020.ics'),
    });
    expect(linked.status).to.equal(201);
    const made = await ny.client.post('/calendar/shares', {
      name: 'NY',
      sourceIds: [linked.body.sourceId],
    });
    const text = (await server.http.get(new URL(made.body.url).pathname)).text;
    expect(text)
      .to.contain('DTSTART;TZID=Europe/Berlin:20200106T091500')
      .and.contain('TZID:Europe/Berlin');
    if (!python) this.skip();
    const file = join(dir, 'ny.ics');
    writeFileSync(file, text);
    const rows: Row[] = [];
    for (const e of (await ny.client.get('/calendar/events?from=2026-03-01&to=2026-03-31&limit=50'))
      .body.events) {
      rows.push({
        title: e.title,
        date: e.data.date,
        time: e.data.time,
        endDate: e.data.endDate ?? e.data.date,
        endTime: e.data.endTime,
      });
    }
    const theirs = independentExpansion(file, '2026-03-01', '2026-03-31', 'America/New_York');
    // The first 50 in order; the independent list sorted the same way.
    expect(sorted(rows)).to.deep.equal(sorted(theirs).slice(0, rows.length));
    expect(rows.find((r) => r.date === '2026-03-09')!.time).to.equal('04:15'); // US clocks moved on 8 March, Europe's not yet
  });

  it("shares a feed's calendar by its key (categories) as well", async () => {
    const key = (await server.api.get('/calendar/external')).body.feeds.find(
      (f: any) => f.name === 'Moved',
    ).calendarKey;
    const text = await share({ categories: [key] });
    expect(text).to.contain('SUMMARY:test7 - edited');
    expect(text).not.to.contain('Team meeting');
  });
});
