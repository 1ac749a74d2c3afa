import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startTestServer, type Client, type TestServer } from '../helpers/server.js';
import { fixture, startIcsServer, type IcsServer } from '../helpers/fakes/icsServer.js';
import { independentExpansion, MISSING, python, sorted, type Row } from '../feeds/independent.js';

// Real-world feeds (test/fixtures/ics, see its README) linked through the real server from a local
// feed server, each window listed through GET /calendar/events and compared with an independent
// expansion (python-recurring-ical-events) — in the zone most of them were written in, and in
// another one, so that every time is converted rather than passed through.

const FIXTURES: [file: string, from: string, to: string][] = [
  ['Germany_Holidays.ics', '2019-01-01', '2020-12-31'],
  ['daylight_saving_time.ics', '2018-10-01', '2019-04-30'],
  ['discourse_no_dtend.ics', '2019-01-01', '2019-12-31'],
  ['duration.ics', '2018-01-01', '2018-01-31'],
  ['each_week_but_two_deleted.ics', '2019-03-01', '2019-05-31'],
  ['fablab_cottbus.ics', '2017-01-01', '2018-12-31'],
  ['issue_18_cancel_status.ics', '2020-01-01', '2020-02-29'],
  ['issue_223_thunderbird.ics', '2025-04-20', '2025-04-30'],
  ['issue_28_rrule_with_UTC_endinginZ.ics', '2020-01-01', '2020-12-31'],
  ['issue_4_weidenrinde.ics', '2019-08-01', '2019-09-30'],
  ['issue_62_moved_event.ics', '2021-11-01', '2022-06-30'],
  ['machbar_16_feb_2019.ics', '2018-10-01', '2019-04-30'],
  ['one_day_event_repeat_every_day.ics', '2019-03-01', '2019-04-30'],
  ['one_day_event_repeat_every_day.ics', '2026-11-01', '2026-11-30'],
  ['rdate_hackerpublicradio.ics', '2013-07-01', '2014-12-31'],
  ['recurring_events_moved.ics', '2019-03-01', '2019-03-31'],
  ['three_events_one_edited.ics', '2019-03-15', '2019-03-25'],
  ['x_wr_timezone_simple_events_issue_59.ics', '2021-12-01', '2021-12-31'],
  ['zero_size_event.ics', '2019-03-01', '2019-03-31'],
  ['outlook_exchange.ics', '2026-01-01', '2026-03-31'],
  ['series_from_2020.ics', '2026-11-22', '2026-12-01'],
];
const ZONES = ['Europe/Berlin', 'America/New_York'];

function fixturePath(name: string): string {
  return fileURLToPath(new URL(`../../../test/fixtures/ics/${name}`, import.meta.url));
}

/** Every occurrence starting in [from, to], following nextCursor, as rows. */
async function listed(client: Client, from: string, to: string): Promise<Row[]> {
  const out: Row[] = [];
  let cursor = '';
  for (;;) {
    const r = await client.get(
      `/calendar/events?from=${from}&to=${to}&limit=50${cursor ? `&cursor=${cursor}` : ''}`,
    );
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    for (const e of r.body.events) {
      if (e.data.date < from || e.data.date > to) continue; // began before the window and reaches into it
      out.push({
        title: e.title,
        date: e.data.date,
        time: e.data.time,
        endDate: e.data.endDate ?? e.data.date,
        endTime: e.data.endTime,
      });
    }
    if (!r.body.nextCursor) return out;
    cursor = r.body.nextCursor;
  }
}

describe('feeds as calendar programs and public feeds write them', () => {
  let server: TestServer;
  let feeds: IcsServer;
  const families = new Map<string, Client>();
  before(async () => {
    if (!python) console.log(`      (${MISSING})`);
    server = await startTestServer();
    feeds = await startIcsServer();
  });
  after(async () => {
    await server.close();
    await feeds.close();
  });

  /** A family in `zone` that has linked `file` (one per file and zone, made once). */
  async function familyWith(file: string, zone: string): Promise<Client> {
    const slug = `${file
      .replace(/\.ics$/, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .slice(0, 40)}-${zone === 'Europe/Berlin' ? 'be' : 'ny'}`;
    let client = families.get(slug);
    if (client) return client;
    feeds.set(`/${file}`, { body: fixture(file) });
    client = (await server.family(slug, { timezone: zone })).client;
    const r = await client.post('/calendar/external', { name: 'Feed', url: feeds.url(`/${file}`) });
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    families.set(slug, client);
    return client;
  }

  for (const zone of ZONES) {
    for (const [file, from, to] of FIXTURES) {
      it(`${file} read in ${zone}: ${from} … ${to} lists what an independent expansion finds`, async function () {
        if (!python) this.skip();
        const client = await familyWith(file, zone);
        const ours = sorted(await listed(client, from, to));
        const theirs = sorted(independentExpansion(fixturePath(file), from, to, zone));
        expect(theirs.length, 'the window should not be empty').to.be.greaterThan(0);
        expect(ours).to.deep.equal(theirs);
      });
    }
  }

  for (const file of ['outlook_exchange.ics', 'series_from_2020.ics']) {
    it(`${file} lists the expectations written out by hand`, async () => {
      const want = JSON.parse(
        readFileSync(fixturePath(file.replace('.ics', '.expected.json')), 'utf8'),
      ) as { timezone: string; from: string; to: string; events: Row[] };
      const client = await familyWith(file, want.timezone);
      expect(sorted(await listed(client, want.from, want.to))).to.deep.equal(sorted(want.events));
    });
  }

  it('refuses a feed cut off mid-event (malformed.ics) with 400 saying why', async () => {
    feeds.set('/malformed.ics', { body: fixture('malformed.ics') });
    const r = await server.api.post('/calendar/external', {
      name: 'Broken',
      url: feeds.url('/malformed.ics'),
    });
    expect(r.status).to.equal(400);
    expect(r.body.issues).to.deep.equal([
      {
        path: ['url'],
        message:
          'the feed could not be read as iCalendar: invalid ical body. component began but did not end',
      },
    ]);
    expect((await server.api.get('/calendar/external')).body.feeds).to.deep.equal([]);
  });

  it('leaves out the events of a feed it cannot read, and says how many', async () => {
    const body = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//x//y//EN',
      'BEGIN:VEVENT',
      'UID:no-start',
      'SUMMARY:No start',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:bad-start',
      'SUMMARY:Bad start',
      'DTSTART:20261399T250000',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:fine',
      'SUMMARY:Fine',
      'DTSTART:20261201',
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ].join('\r\n');
    feeds.set('/partly.ics', { body });
    const r = await server.api.post('/calendar/external', {
      name: 'Partly',
      url: feeds.url('/partly.ics'),
    });
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    expect(r.body.eventCount).to.equal(1);
    const log = (await server.api.get('/changes?after=0&limit=500')).body.changes;
    expect(
      log.find((c: any) => c.type === 'external_calendar.created').object.skippedEvents,
    ).to.equal(2);
    // A DATE written without VALUE=DATE is still a date (all-day).
    const ev = (await server.api.get('/calendar/events?from=2026-12-01&to=2026-12-01')).body
      .events[0];
    expect(ev).to.deep.include({ title: 'Fine' });
    expect(ev.data).to.include({ date: '2026-12-01', allDay: true, time: null });
  });
});
