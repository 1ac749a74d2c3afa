/**
 * Real CalDAV clients against the real daemon (127.0.0.1, port 0, a fresh LMDB folder):
 * python-caldav 0.11 (what Home Assistant's CalDAV integration is built on) for discovery,
 * time-range and expand, PUT / EXDATE / DELETE, to-dos and sync-collection; vdirsyncer 0.19 for
 * a two-way sync with a local folder. Every client write is checked through REST, and every REST
 * write through the client. The REPORT assertions read the server's own multistatus (the raw
 * exchange the library made): python-caldav expands recurrences itself when a server does not,
 * so what the library hands back alone would not show whether the server expanded.
 * A missing program skips its tests, saying so.
 */
import { expect } from 'chai';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server.js';
import {
  components,
  multistatus,
  PYTHON_CALDAV_MISSING,
  PythonCaldav,
  pythonCaldav,
  run,
  vdirsyncer,
  VDIRSYNCER_MISSING,
  type Answer,
  type Exchange,
} from './clients.js';

const VTIMEZONE_BERLIN = [
  'BEGIN:VTIMEZONE',
  'TZID:Europe/Berlin',
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0200',
  'TZNAME:CEST',
  'DTSTART:19700329T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:+0200',
  'TZOFFSETTO:+0100',
  'TZNAME:CET',
  'DTSTART:19701025T030000',
  'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
];

function vcalendar(...lines: string[]): string {
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//household-tests//python-caldav//EN',
    ...lines,
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

/** Swimming every Monday 18:00–19:00 Berlin time from 2 March 2026, 15-minute alarm, a place. */
const SWIMMING = vcalendar(
  ...VTIMEZONE_BERLIN,
  'BEGIN:VEVENT',
  'UID:swim-2026@phone.example',
  'DTSTAMP:20260201T120000Z',
  'DTSTART;TZID=Europe/Berlin:20260302T180000',
  'DTEND;TZID=Europe/Berlin:20260302T190000',
  'RRULE:FREQ=WEEKLY;BYDAY=MO',
  'SUMMARY:Swimming',
  'LOCATION:City pool',
  'BEGIN:VALARM',
  'ACTION:DISPLAY',
  'DESCRIPTION:Swimming',
  'TRIGGER:-PT15M',
  'END:VALARM',
  'END:VEVENT',
);

/** The raw answers of the library's REPORT requests in one command. */
function reports(a: Answer): Exchange[] {
  return a.exchanges.filter((e) => e.method === 'REPORT');
}

/** VEVENTs of every calendar-data in a multistatus, with the href they came under. */
function eventsIn(xml: string): (Record<string, string> & { href: string })[] {
  return multistatus(xml).flatMap((r) =>
    r.calendarData ? components(r.calendarData).map((c) => ({ ...c, href: r.href })) : [],
  );
}

describe('CalDAV with real clients (python-caldav, vdirsyncer)', function () {
  this.timeout(30_000);
  let server: TestServer;
  let dav: string;
  let home: string;
  let calendar: string;
  let chores: string;

  before(async () => {
    server = await startTestServer({ timezone: 'Europe/Berlin' });
    dav = `${server.url}/dav/`;
    home = `${dav}${server.slug}/`;
    calendar = `${home}calendar/`;
    chores = `${home}chores/`;
  });
  after(() => server?.close());

  /** A raw request with the family's Basic credentials, for what the test sends itself. */
  async function raw(
    method: string,
    url: string,
    opts: { body?: string; headers?: Record<string, string> } = {},
  ) {
    const auth = Buffer.from(`${server.slug}:${server.apiKey}`).toString('base64');
    const res = await fetch(url, {
      method,
      redirect: 'manual',
      headers: { authorization: `Basic ${auth}`, ...(opts.headers ?? {}) },
      ...(opts.body !== undefined ? { body: opts.body } : {}),
    });
    return { status: res.status, headers: res.headers, text: await res.text() };
  }

  /** Events of the family calendar listed through REST (occurrences when from/to are given). */
  async function restEvents(qs: string): Promise<any[]> {
    const r = await server.api.get(`/calendar/events?limit=50&${qs}`);
    expect(r.status, r.text).to.equal(200);
    return r.body.events;
  }

  describe('python-caldav 0.11', () => {
    let py: PythonCaldav;
    before(async function () {
      if (!pythonCaldav) {
        console.log(`      skipped: ${PYTHON_CALDAV_MISSING}`);
        this.skip();
      }
      py = new PythonCaldav(120);
      await py.must({ op: 'connect', url: dav, username: server.slug, password: server.apiKey });
    });
    after(async () => {
      await py?.close();
    });

    it('discovers the principal, the calendar home and the collections, from /dav/ and from /.well-known/caldav', async () => {
      const found = await py.must({ op: 'discover' });
      expect(found.principal).to.equal(home);
      expect(found.home).to.equal(home);
      const byUrl = new Map<string, any>(found.calendars.map((c: any) => [c.url, c]));
      expect(byUrl.get(calendar), JSON.stringify(found.calendars)).to.exist;
      expect(byUrl.get(calendar).components).to.include('VEVENT').and.not.include('VTODO');
      expect(byUrl.get(chores), JSON.stringify(found.calendars)).to.exist;
      expect(byUrl.get(chores).components).to.include('VTODO').and.not.include('VEVENT');
      // The display names are the collections' names in REST.
      const trackers = (await server.api.get('/trackers')).body;
      const list: any[] = trackers.trackers ?? trackers.collections ?? trackers;
      const choresName = list.find((t: any) => t.key === 'chores')?.name;
      expect(byUrl.get(chores).name).to.equal(choresName);

      const wellKnown = await fetch(`${server.url}/.well-known/caldav`, { redirect: 'manual' });
      expect(wellKnown.status).to.equal(301);
      expect(new URL(wellKnown.headers.get('location')!, server.url).pathname).to.equal('/dav/');
      // A client given only the server's well-known address finds the same principal.
      const other = new PythonCaldav(30);
      try {
        await other.must({
          op: 'connect',
          url: `${server.url}/.well-known/caldav`,
          username: server.slug,
          password: server.apiKey,
        });
        const again = await other.must({ op: 'discover' });
        expect(again.principal).to.equal(home);
        expect(again.calendars.map((c: any) => c.url)).to.include.members([calendar, chores]);
      } finally {
        await other.close();
      }
      // A wrong key is refused with a Basic challenge.
      const wrong = await fetch(home, {
        method: 'PROPFIND',
        headers: {
          depth: '0',
          authorization: `Basic ${Buffer.from(`${server.slug}:hk_wrong`).toString('base64')}`,
        },
      });
      expect(wrong.status).to.equal(401);
      expect(wrong.headers.get('www-authenticate')).to.match(/^Basic realm="/);
    });

    /** Where python-caldav put SWIMMING (it names the object after the UID). */
    let swimUrl = '';

    it("PUTs a repeating event with a zone and an alarm; REST sees it at once, in the family's local time", async () => {
      const saved = await py.must({ op: 'save', calendar, ics: SWIMMING });
      swimUrl = saved.url;
      expect(saved.exchanges.map((e) => `${e.method} ${e.status}`)).to.include('PUT 201');
      const url: string = saved.url;
      expect(url.startsWith(calendar)).to.equal(true);
      const series = (
        await server.api.get('/trackers/calendar/entries?limit=50')
      ).body.entries.filter((e: any) => e.title === 'Swimming');
      expect(series).to.have.length(1);
      expect(series[0].data).to.deep.include({
        date: '2026-03-02',
        time: '18:00',
        repeatFrequency: 'weekly',
        where: 'City pool',
      });
      expect(series[0].data.reminders.map((r: any) => r.offsetMinutes)).to.deep.equal([15]);
      // Every Monday at 18:00 local time, also after the switch to summer time on 29 March.
      const march = (await restEvents('from=2026-03-01&to=2026-03-31')).filter(
        (e) => e.title === 'Swimming',
      );
      expect(march.map((e) => `${e.data.date} ${e.data.time}`)).to.deep.equal([
        '2026-03-02 18:00',
        '2026-03-09 18:00',
        '2026-03-16 18:00',
        '2026-03-23 18:00',
        '2026-03-30 18:00',
      ]);
      // The object keeps the client's name and UID, with a strong ETag.
      const got = await raw('GET', url);
      expect(got.status).to.equal(200);
      expect(got.headers.get('etag')).to.match(/^"[^"]+"$/);
      const [ev] = components(got.text);
      expect(ev.UID).to.equal('swim-2026@phone.example');
      expect(ev.RRULE)
        .to.match(/FREQ=WEEKLY/)
        .and.match(/BYDAY=MO/);
      expect(ev.DTSTART).to.equal('TZID=Europe/Berlin:20260302T180000');
    });

    it('answers calendar-query with time-range alone (series as stored) and with expand (occurrences in UTC, no RRULE)', async () => {
      const made = await server.api.post('/calendar/events', {
        title: 'Dentist',
        date: '2026-03-10',
        time: '09:00',
        durationMinutes: 30,
      });
      expect(made.status, made.text).to.equal(201);
      const dentistHref = `${calendar}${made.body.entryId}.ics`;

      // March: both objects, unexpanded.
      const month = await py.must({
        op: 'search',
        calendar,
        start: '2026-03-01T00:00:00Z',
        end: '2026-04-01T00:00:00Z',
      });
      const [monthReport] = reports(month);
      expect(monthReport.status).to.equal(207);
      const monthAnswer = multistatus(monthReport.responseBody);
      const paths = (hrefs: string[]) =>
        hrefs.map((h) => decodeURIComponent(new URL(h, server.url).pathname));
      expect(paths(monthAnswer.map((r) => r.href))).to.have.members(paths([swimUrl, dentistHref]));
      const swimStored = eventsIn(monthReport.responseBody).filter(
        (e) => e.UID === 'swim-2026@phone.example',
      );
      expect(swimStored).to.have.length(1);
      expect(swimStored[0].RRULE).to.match(/FREQ=WEEKLY/);

      // March with expand: the server itself answers five Mondays, each with RECURRENCE-ID, in UTC
      // (the last one after the switch to summer time).
      const expanded = await py.must({
        op: 'search',
        calendar,
        start: '2026-03-01T00:00:00Z',
        end: '2026-04-01T00:00:00Z',
        expand: true,
      });
      const [expReport] = reports(expanded);
      expect(expReport.requestBody).to.contain('expand');
      const swim = eventsIn(expReport.responseBody).filter(
        (e) => e.UID === 'swim-2026@phone.example',
      );
      expect(swim.map((e) => e.RRULE)).to.deep.equal([
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
      ]);
      expect(swim.map((e) => e['RECURRENCE-ID']).sort()).to.deep.equal([
        '20260302T170000Z',
        '20260309T170000Z',
        '20260316T170000Z',
        '20260323T170000Z',
        '20260330T160000Z',
      ]);
      expect(swim.map((e) => e.DTSTART).sort()).to.deep.equal([
        '20260302T170000Z',
        '20260309T170000Z',
        '20260316T170000Z',
        '20260323T170000Z',
        '20260330T160000Z',
      ]);
      const dentist = eventsIn(expReport.responseBody).filter((e) =>
        e.href.endsWith(`${made.body.entryId}.ics`),
      );
      expect(dentist.map((e) => e.DTSTART)).to.deep.equal(['20260310T080000Z']);
      // The library hands back one object per occurrence as well.
      expect(expanded.objects).to.have.length(6);

      // One day: only the Monday of that day.
      const day = await py.must({
        op: 'search',
        calendar,
        start: '2026-03-09T00:00:00Z',
        end: '2026-03-10T00:00:00Z',
        expand: true,
      });
      const dayEvents = eventsIn(reports(day)[0].responseBody);
      expect(dayEvents.map((e) => `${e.UID} ${e['RECURRENCE-ID']}`)).to.deep.equal([
        'swim-2026@phone.example 20260309T170000Z',
      ]);
    });

    it('an EXDATE and a new SUMMARY from the client reach REST; a REST edit reaches the client; DELETE removes it', async () => {
      const found = await py.must({ op: 'by_uid', calendar, uid: 'swim-2026@phone.example' });
      const edited = await py.must({
        op: 'edit',
        calendar,
        url: found.url,
        exdate: '2026-03-16T17:00:00Z',
        summary: 'Swimming lesson',
      });
      expect(edited.exchanges.filter((e) => e.method === 'PUT').map((e) => e.status)).to.satisfy(
        (s: number[]) => s.length === 1 && s[0] < 300,
      );
      const march = (await restEvents('from=2026-03-01&to=2026-03-31')).filter(
        (e) => e.title === 'Swimming lesson',
      );
      expect(march.map((e) => e.data.date)).to.deep.equal([
        '2026-03-02',
        '2026-03-09',
        '2026-03-23',
        '2026-03-30',
      ]);
      // The server's own expansion leaves the date out too.
      const exp = await py.must({
        op: 'search',
        calendar,
        start: '2026-03-01T00:00:00Z',
        end: '2026-04-01T00:00:00Z',
        expand: true,
      });
      const ids = eventsIn(reports(exp)[0].responseBody)
        .filter((e) => e.UID === 'swim-2026@phone.example')
        .map((e) => e['RECURRENCE-ID']);
      expect(ids).to.have.length(4).and.not.include('20260316T170000Z');

      // REST renames the series; the client reads the new title and keeps its UID.
      const id = (await server.api.get('/trackers/calendar/entries?limit=50')).body.entries.find(
        (e: any) => e.title === 'Swimming lesson',
      ).id;
      const patched = await server.api.patch(`/calendar/events/${id}`, { title: 'Swim club' });
      expect(patched.status, patched.text).to.equal(200);
      const after = await py.must({ op: 'by_uid', calendar, uid: 'swim-2026@phone.example' });
      expect(components(after.data)[0].SUMMARY).to.equal('Swim club');

      await py.must({ op: 'delete', calendar, url: found.url });
      expect(
        (await server.api.get('/trackers/calendar/entries?limit=50')).body.entries.map(
          (e: any) => e.id,
        ),
      ).to.not.include(id);
      expect((await raw('GET', found.url)).status).to.equal(404);
    });

    it('to-dos: a client to-do becomes a chore, completing it marks it done, a REST chore is a pending to-do', async () => {
      const todo = vcalendar(
        'BEGIN:VTODO',
        'UID:bins-todo@ha.example',
        'DTSTAMP:20260201T120000Z',
        'SUMMARY:Take the bins out',
        'DUE;VALUE=DATE:20260305',
        'DESCRIPTION:Green bin this week',
        'STATUS:NEEDS-ACTION',
        'END:VTODO',
      );
      await py.must({ op: 'save', calendar: chores, ics: todo, todo: true });
      let entries = (await server.api.get('/trackers/chores/entries?limit=50')).body.entries;
      const bins = entries.find((e: any) => e.title === 'Take the bins out');
      expect(bins, JSON.stringify(entries)).to.exist;
      expect(Object.values(bins.data)).to.include('2026-03-05');
      expect(Object.values(bins.data)).to.include('Green bin this week');

      const made = await server.api.post('/trackers/chores/entries', { title: 'Water the plants' });
      expect(made.status, made.text).to.equal(201);
      const pending = await py.must({ op: 'todos', calendar: chores });
      const pendingTitles = pending.objects.map((o: any) => components(o.data, 'VTODO')[0].SUMMARY);
      expect(pendingTitles).to.include.members(['Take the bins out', 'Water the plants']);
      // The server's own answers to the library's three pending-to-do queries hold both.
      const hrefs = pending.exchanges
        .filter((e) => e.method === 'REPORT')
        .flatMap((e) => multistatus(e.responseBody).map((r) => r.href));
      expect(hrefs.some((h) => h.endsWith(`${made.body.entry.id}.ics`))).to.equal(true);

      await py.must({
        op: 'complete',
        calendar: chores,
        uid: 'bins-todo@ha.example',
        at: '2026-03-05T18:00:00Z',
      });
      entries = (await server.api.get('/trackers/chores/entries?status=done&limit=50')).body
        .entries;
      expect(entries.map((e: any) => e.title)).to.include('Take the bins out');
      const stillPending = await py.must({ op: 'todos', calendar: chores });
      const titles = stillPending.objects.map((o: any) => components(o.data, 'VTODO')[0].SUMMARY);
      expect(titles).to.include('Water the plants').and.not.include('Take the bins out');
    });

    it("Home Assistant's to-do steps: add with keywords, list, rename, complete, reopen, delete — each visible in REST", async () => {
      const groceries = `${home}groceries/`;
      const added = await py.must({
        op: 'ha_todo',
        calendar: groceries,
        action: 'add',
        summary: 'Oat milk',
        description: 'Two cartons',
      });
      const rest = async (status = '') =>
        (
          await server.api.get(
            `/trackers/groceries/entries?limit=50${status ? `&status=${status}` : ''}`,
          )
        ).body.entries as any[];
      const milk = (await rest()).find((e) => e.title === 'Oat milk');
      expect(milk, 'the to-do as a groceries entry').to.exist;

      const listed = await py.must({ op: 'ha_todo', calendar: groceries, action: 'list' });
      expect(listed.items.find((i: any) => i.uid === added.uid)).to.include({
        summary: 'Oat milk',
        status: 'NEEDS-ACTION',
      });

      await py.must({
        op: 'ha_todo',
        calendar: groceries,
        action: 'update',
        uid: added.uid,
        summary: 'Oat milk (barista)',
      });
      expect((await rest()).find((e) => e.id === milk.id)?.title).to.equal('Oat milk (barista)');
      await py.must({
        op: 'ha_todo',
        calendar: groceries,
        action: 'update',
        uid: added.uid,
        status: 'COMPLETED',
        at: '2026-03-05T18:00:00Z',
      });
      expect((await rest('done')).map((e) => e.id)).to.include(milk.id);
      const done = await py.must({ op: 'ha_todo', calendar: groceries, action: 'list' });
      expect(done.items.find((i: any) => i.uid === added.uid)?.status).to.equal('COMPLETED');
      await py.must({
        op: 'ha_todo',
        calendar: groceries,
        action: 'update',
        uid: added.uid,
        status: 'NEEDS-ACTION',
      });
      expect((await rest('active')).map((e) => e.id)).to.include(milk.id);

      // A REST rename shows in the next listing; a delete from the client removes the entry.
      const renamed = await server.api.patch(`/trackers/groceries/entries/${milk.id}`, {
        title: 'Soy milk',
      });
      expect(renamed.status, renamed.text).to.equal(200);
      const again = await py.must({ op: 'ha_todo', calendar: groceries, action: 'list' });
      expect(again.items.find((i: any) => i.uid === added.uid)?.summary).to.equal('Soy milk');
      await py.must({ op: 'ha_todo', calendar: groceries, action: 'delete', uid: added.uid });
      expect((await rest()).map((e) => e.id)).to.not.include(milk.id);
      expect((await rest('done')).map((e) => e.id)).to.not.include(milk.id);
    });

    it('a read-only key: the client lists events, and its PUT and DELETE are refused (403) with nothing written', async () => {
      const readKey = await server.key({ scopes: ['read'], name: 'wall display' });
      const reader = new PythonCaldav(30);
      try {
        await reader.must({ op: 'connect', url: dav, username: server.slug, password: readKey });
        const seen = await reader.must({
          op: 'search',
          calendar,
          start: '2026-03-01T00:00:00Z',
          end: '2026-04-01T00:00:00Z',
        });
        expect(seen.objects.length).to.be.greaterThan(0);
        const before = (await server.api.get('/trackers/calendar/entries?limit=50')).body.entries
          .length;
        const put = await reader.ask({
          op: 'save',
          calendar,
          ics: SWIMMING.replace('swim-2026@phone.example', 'read-only@phone.example'),
        });
        expect(put.ok).to.equal(false);
        expect(put.exchanges.filter((e) => e.method === 'PUT').map((e) => e.status)).to.deep.equal([
          403,
        ]);
        const del = await reader.ask({
          op: 'delete',
          calendar,
          url: new URL(seen.objects[0].url).href,
        });
        expect(del.ok).to.equal(false);
        expect(
          del.exchanges.filter((e) => e.method === 'DELETE').map((e) => e.status),
        ).to.deep.equal([403]);
        expect(
          (await server.api.get('/trackers/calendar/entries?limit=50')).body.entries.length,
        ).to.equal(before);
      } finally {
        await reader.close();
      }
    });

    it('sync-collection: the initial sync, then only what REST changed, a REST delete as 404, a stale token as 403', async () => {
      const first = await py.must({ op: 'sync', calendar });
      expect(first.token).to.be.a('string').and.not.equal('');
      const before = first.objects.length;
      expect(before).to.be.greaterThan(0);

      const made = await server.api.post('/calendar/events', {
        title: 'Parents evening',
        date: '2026-04-14',
        time: '19:00',
      });
      expect(made.status, made.text).to.equal(201);
      const second = await py.must({ op: 'sync', calendar, token: first.token });
      expect(second.token).to.not.equal(first.token);
      expect(second.objects.map((o: any) => o.url)).to.deep.equal([
        `${calendar}${made.body.entryId}.ics`,
      ]);
      expect(components(second.objects[0].data)[0].SUMMARY).to.equal('Parents evening');

      const gone = await server.api.delete(`/calendar/events/${made.body.entryId}`);
      expect(gone.status, gone.text).to.equal(200);
      const third = await py.must({ op: 'sync', calendar, token: second.token });
      const [report] = reports(third);
      const answer = multistatus(report.responseBody);
      expect(answer.map((r) => r.href.replace(/^https?:\/\/[^/]+/, ''))).to.deep.equal([
        new URL(`${calendar}${made.body.entryId}.ics`).pathname,
      ]);
      expect(answer[0].statuses.join(' ')).to.match(/404/);

      // A token the server never gave: 403 with valid-sync-token; the library raises.
      const stale = await py.ask({
        op: 'stale_sync',
        calendar,
        token: `${first.token.replace(/\w+$/, '')}999999999`,
      });
      expect(stale.raised).to.equal('AuthorizationError');
      const body =
        '<?xml version="1.0" encoding="utf-8"?><d:sync-collection xmlns:d="DAV:"><d:sync-token>urn:x-household:nope</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>';
      const r = await raw('REPORT', calendar, {
        body,
        headers: { 'content-type': 'application/xml; charset=utf-8', depth: '1' },
      });
      expect(r.status).to.equal(403);
      expect(r.text).to.contain('valid-sync-token');
    });
  });

  describe('vdirsyncer 0.19', () => {
    let dir: string;
    before(function () {
      if (!vdirsyncer) {
        console.log(`      skipped: ${VDIRSYNCER_MISSING}`);
        this.skip();
      }
      dir = mkdtempSync(join(tmpdir(), 'household-vdirsyncer-'));
    });
    after(() => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    async function sync(config: string, args: string[]) {
      const r = await run('vdirsyncer', ['-c', config, ...args], {
        input: 'y\ny\ny\ny\n',
        seconds: 25,
      });
      expect(r.code, `vdirsyncer ${args.join(' ')}:\n${r.stdout}\n${r.stderr}`).to.equal(0);
      return r;
    }

    it('syncs both ways with a local folder: REST events and chores arrive as files, a new file arrives in REST, a local delete removes it', async () => {
      const local = join(dir, 'calendars');
      mkdirSync(join(local, 'calendar'), { recursive: true });
      mkdirSync(join(local, 'chores'), { recursive: true });
      const config = join(dir, 'config');
      writeFileSync(
        config,
        [
          '[general]',
          `status_path = "${join(dir, 'status')}/"`,
          '',
          '[pair family]',
          'a = "family_local"',
          'b = "family_remote"',
          'collections = ["calendar", "chores"]',
          'conflict_resolution = "b wins"',
          '',
          '[storage family_local]',
          'type = "filesystem"',
          `path = "${local}/"`,
          'fileext = ".ics"',
          '',
          // The server's root, as docs/caldav.md tells vdirsyncer users to write it.
          '[storage family_remote]',
          'type = "caldav"',
          `url = "${server.url}/"`,
          `username = "${server.slug}"`,
          `password = "${server.apiKey}"`,
          '',
        ].join('\n'),
      );
      const made = await server.api.post('/calendar/events', {
        title: 'Piano recital',
        date: '2026-05-09',
        time: '15:00',
        where: 'Music school',
      });
      expect(made.status, made.text).to.equal(201);

      const chore = await server.api.post('/trackers/chores/entries', {
        title: 'Descale the kettle',
      });
      expect(chore.status, chore.text).to.equal(201);

      await sync(config, ['discover']);
      await sync(config, ['sync']);
      // The chores list comes down as to-dos.
      const choreFiles = readdirSync(join(local, 'chores')).map((f) =>
        readFileSync(join(local, 'chores', f), 'utf8'),
      );
      expect(choreFiles.flatMap((t) => components(t, 'VTODO')).map((t) => t.SUMMARY)).to.include(
        'Descale the kettle',
      );
      const folder = join(local, 'calendar');
      const fileOf = (summary: string) =>
        readdirSync(folder).find((f) =>
          readFileSync(join(folder, f), 'utf8').includes(`SUMMARY:${summary}`),
        );
      const file = fileOf('Piano recital');
      expect(file, readdirSync(folder).join(', ')).to.exist;
      expect(components(readFileSync(join(folder, file!), 'utf8'))[0].LOCATION).to.equal(
        'Music school',
      );

      // A new local file goes up and becomes an event in REST.
      writeFileSync(
        join(folder, 'school-trip@laptop.example.ics'),
        vcalendar(
          'BEGIN:VEVENT',
          'UID:school-trip@laptop.example',
          'DTSTAMP:20260201T120000Z',
          'DTSTART;VALUE=DATE:20260520',
          'DTEND;VALUE=DATE:20260521',
          'SUMMARY:School trip',
          'END:VEVENT',
        ),
      );
      // A REST edit comes down in the same run.
      const patched = await server.api.patch(`/calendar/events/${made.body.entryId}`, {
        title: 'Piano recital (hall B)',
      });
      expect(patched.status, patched.text).to.equal(200);
      await sync(config, ['sync']);
      const trip = (await restEvents('from=2026-05-20&to=2026-05-20')).find(
        (e) => e.title === 'School trip',
      );
      expect(trip, 'the local file as a REST event').to.exist;
      expect(trip.data).to.include({ date: '2026-05-20', allDay: true });
      expect(fileOf('Piano recital (hall B)')).to.equal(file);

      // A local delete removes the REST event.
      rmSync(join(folder, file!));
      await sync(config, ['sync']);
      expect((await restEvents('from=2026-05-09&to=2026-05-09')).map((e) => e.id)).to.not.include(
        made.body.entryId,
      );
    });
  });
});
