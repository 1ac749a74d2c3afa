import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import IcalExpander from 'ical-expander';
import { startTestServer, type Client, type TestServer } from '../helpers/server.js';
import { conforms } from '../helpers/contract.js';
import { FakeClock } from '../helpers/clock.js';
import { localToInstant } from '../../src/domain/shared/time.js';

// ical.js ships no types; it is the reference reader here.
const ICAL = createRequire(import.meta.url)('ical.js');

const SHARES = '/api/v1/families/{familySlug}/calendar/shares';
const SHARE = '/api/v1/families/{familySlug}/calendar/shares/{shareId}';
const FEED = '/share/calendar/{file}';

describe('calendar shares over HTTP', () => {
  let server: TestServer;
  const clock = new FakeClock('2026-11-22T08:30:00.000Z');
  before(async () => {
    server = await startTestServer({ now: clock.now, timezone: 'Europe/Berlin' });
  });
  after(() => server?.close());

  let n = 0;
  async function fresh(): Promise<Client> {
    return (await server.family(`share-${++n}`, { timezone: 'Europe/Berlin' })).client;
  }
  async function create(api: Client, body: Record<string, unknown>): Promise<string> {
    const r = await api.post('/calendar/events', { title: 'Event', date: '2026-12-01', ...body });
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    return r.body.entryId;
  }
  async function share(
    api: Client,
    body: Record<string, unknown>,
  ): Promise<{ id: string; token: string; path: string }> {
    const r = await api.post('/calendar/shares', body);
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    return { id: r.body.share.id, token: r.body.token, path: new URL(r.body.url).pathname };
  }
  function nextDay(date: string): string {
    const d = new Date(`${date}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + 1);
    return d.toISOString().slice(0, 10);
  }
  function uids(ics: string): string[] {
    const vevents = new ICAL.Component(ICAL.parse(ics)).getAllSubcomponents('vevent');
    return Array.from(
      new Set<string>(
        vevents.map((v: any) => String(v.getFirstPropertyValue('uid')).replace(/@.*$/, '')),
      ),
    ).sort();
  }

  it('creates a share once-visible token, lists shares without it, and logs both changes', async () => {
    const api = await fresh();
    const r = await api.post('/calendar/shares', { name: 'Grandparents' });
    expect(r.status).to.equal(201);
    await conforms(server, r, 'post', SHARES);
    expect(r.body.token).to.match(/^shr_[0-9A-Za-z]{32}$/);
    expect(r.body.url).to.equal(`http://share.test/share/calendar/${r.body.token}.ics`);
    expect(r.body.share).to.include({ name: 'Grandparents' });
    expect(r.body.share).to.deep.include({
      categories: [],
      eventIds: [],
      personIds: [],
      sourceIds: [],
    });
    expect(r.body.share.id).to.match(/^share_/);
    const list = await api.get('/calendar/shares');
    expect(list.status).to.equal(200);
    await conforms(server, list, 'get', SHARES);
    expect(list.body.shares.map((s: any) => s.id)).to.deep.equal([r.body.share.id]);
    const hash = createHash('sha256').update(r.body.token).digest('hex');
    expect(list.text).to.not.contain(r.body.token).and.not.contain(hash);
    const gone = await api.delete(`/calendar/shares/${r.body.share.id}`);
    expect(gone.status).to.equal(200);
    await conforms(server, gone, 'delete', SHARE);
    expect((await api.get('/calendar/shares')).body.shares).to.deep.equal([]);
    expect((await api.delete(`/calendar/shares/${r.body.share.id}`)).status).to.equal(404);
    const log = (await api.get('/changes?after=0')).body.changes;
    expect(log.map((c: any) => c.type)).to.deep.equal([
      'calendar_share.created',
      'calendar_share.deleted',
    ]);
    expect(log[0].object).to.include({ id: r.body.share.id, name: 'Grandparents' });
    expect(JSON.stringify(log)).to.not.contain(r.body.token).and.not.contain(hash);
  });

  it('needs the admin scope', async () => {
    const key = await server.key({ scopes: ['write'] });
    expect((await server.api.get('/calendar/shares', { key })).status).to.equal(403);
    expect((await server.api.post('/calendar/shares', { name: 'x' }, { key })).status).to.equal(
      403,
    );
    expect(
      (await server.api.delete('/calendar/shares/share_00000000000000000000', { key })).status,
    ).to.equal(403);
    expect(
      (await server.api.get('/calendar/shares')).body.shares.map((s: any) => s.name),
    ).to.not.include('x');
  });

  it('validates what it selects', async () => {
    const api = await fresh();
    for (const [body, path] of [
      [{}, ['name']],
      [{ name: '' }, ['name']],
      [{ name: 'x', categories: ['meals'] }, ['categories', 0]],
      [{ name: 'x', eventIds: ['ent_nope'] }, ['eventIds', 0]],
      [{ name: 'x', personIds: ['person_nope'] }, ['personIds', 0]],
      [{ name: 'x', sourceIds: ['src_nope'] }, ['sourceIds', 0]],
      [{ name: 'x', token: 'mine' }, ['token']],
    ] as const) {
      const r = await api.post('/calendar/shares', body);
      expect(r.status, JSON.stringify(body)).to.equal(400);
      expect(
        r.body.issues.map((i: any) => i.path),
        JSON.stringify(body),
      ).to.deep.include([...path]);
    }
    expect((await api.get('/calendar/shares')).body.shares).to.have.length(0);
  });

  it('serves the feed without a key and answers 404 at once after revoking, and for unknown tokens', async () => {
    const api = await fresh();
    await create(api, {
      title: 'Swim; pool, lane 2 \\ deep',
      time: '16:00',
      note: 'Line one\nline two',
    });
    const s = await share(api, { name: 'Family, all' });
    const r = await server.http.get(s.path);
    expect(r.status).to.equal(200);
    expect(r.headers.get('content-type')).to.match(/^text\/calendar/);
    await conforms(server, r, 'get', FEED);
    const vcal = new ICAL.Component(ICAL.parse(r.text));
    // ical.js reads X- properties raw (unescaped): compare the escaped text.
    expect(vcal.getFirstPropertyValue('x-wr-calname')).to.equal('Family\\, all');
    expect(r.text).to.contain('X-WR-CALNAME:Family\\, all\r\n');
    const ev = vcal.getFirstSubcomponent('vevent');
    expect(ev.getFirstPropertyValue('summary')).to.equal('Swim; pool, lane 2 \\ deep');
    expect(ev.getFirstPropertyValue('description')).to.equal('Line one\nline two');
    expect(r.text).to.contain('SUMMARY:Swim\\; pool\\, lane 2 \\\\ deep\r\n');
    for (const line of r.text.split('\r\n')) expect(Buffer.byteLength(line)).to.be.at.most(75);
    expect((await server.http.get(s.path.replace(/\.ics$/, ''))).status).to.equal(200);

    await api.delete(`/calendar/shares/${s.id}`);
    const revoked = await server.http.get(s.path);
    expect(revoked.status).to.equal(404);
    expect(revoked.body.code).to.equal('not_found');
    expect(
      (await server.http.get('/share/calendar/shr_0123456789abcdefghijABCDEFGHIJ01.ics')).status,
    ).to.equal(404);
    expect((await server.http.get('/share/calendar/not-a-token.ics')).status).to.equal(404);
  });

  it('folds long lines at 75 octets without splitting a character, and unfolds to the exact text', async () => {
    const api = await fresh();
    const title = `Fête d'été; 日本の祭り, 🎆🎇 \\ ${'Zoë & Bjørn '.repeat(12)}`.trim();
    const note = `Line one, with commas; and semicolons\nZweite Zeile: 🎉 ${'日本語のテキスト'.repeat(20)}\n\\end`;
    expect(Buffer.byteLength(title)).to.be.greaterThan(200);
    await create(api, { title, note, time: '18:00' });
    const ics = (await server.http.get((await share(api, { name: 'Fold' })).path)).text;
    expect(ics.endsWith('\r\n')).to.equal(true);
    expect(ics.replace(/\r\n/g, '')).to.not.match(/[\r\n]/);
    const lines = ics.slice(0, -2).split('\r\n');
    let continued = 0;
    for (const line of lines) {
      expect(Buffer.byteLength(line), line).to.be.at.most(75);
      // Each physical line is valid UTF-8 on its own: no character was cut by a fold.
      expect(Buffer.from(line, 'utf8').toString('utf8')).to.equal(line);
      expect(line).to.not.match(/\uFFFD/);
      if (line.startsWith(' ')) continued++;
    }
    expect(continued).to.be.greaterThan(6);
    // Unfolding (RFC 5545 §3.1: drop CRLF + one space) gives the escaped text whole.
    const unfolded = ics.replace(/\r\n /g, '');
    const escape = (t: string) =>
      t.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\n/g, '\\n');
    expect(unfolded).to.contain(`\r\nSUMMARY:${escape(title)}\r\n`);
    expect(unfolded).to.contain(`\r\nDESCRIPTION:${escape(note)}\r\n`);
    const ev = new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent('vevent');
    expect(ev.getFirstPropertyValue('summary')).to.equal(title);
    expect(ev.getFirstPropertyValue('description')).to.equal(note);
  });

  it('selects the union of calendars, events and people; all empty means every calendar', async () => {
    const api = await fresh();
    const ann = (await api.post('/people', { name: 'Ann' })).body.person.id;
    const cal = (await api.post('/trackers', { name: 'Sports', category: 'calendar' })).body.tracker
      .key;
    const match = await create(api, { title: 'Match', calendarKey: cal });
    const dentist = await create(api, { title: 'Dentist' });
    const party = await create(api, { title: 'Party', attendance: { [ann]: 'going' } });
    const owned = await create(api, { title: 'Owned', ownerPersonId: ann });
    const skipped = await create(api, { title: 'Skipped', attendance: { [ann]: 'out' } });
    const feed = async (body: Record<string, unknown>) =>
      uids((await server.http.get((await share(api, { name: 'S', ...body })).path)).text);
    expect(await feed({})).to.deep.equal([match, dentist, party, owned, skipped].sort());
    expect(await feed({ categories: [cal] })).to.deep.equal([match]);
    expect(await feed({ eventIds: [dentist] })).to.deep.equal([dentist]);
    expect(await feed({ personIds: [ann] })).to.deep.equal([party, owned].sort());
    expect(await feed({ categories: [cal], eventIds: [dentist] })).to.deep.equal(
      [match, dentist].sort(),
    );
  });

  it('parses back with ical.js into the occurrences the listing shows for a window', async () => {
    const api = await fresh();
    const swim = await create(api, {
      title: 'Swim',
      date: '2026-12-01',
      time: '16:00',
      durationMinutes: 45,
      repeatFrequency: 'weekly',
      where: 'Pool',
    });
    await api.patch(`/calendar/events/${swim}`, {
      editScope: 'occurrence',
      occurrenceDate: '2026-12-08',
      time: '17:30',
      title: 'Swim (late)',
    });
    await api.patch(`/calendar/events/${swim}`, {
      editScope: 'occurrence',
      occurrenceDate: '2026-12-22',
      date: '2026-12-23',
    });
    await api.delete(`/calendar/events/${swim}?editScope=occurrence&occurrenceDate=2026-12-15`);
    await create(api, { title: 'Holiday', date: '2026-12-24', endDate: '2026-12-26' });
    await create(api, { title: 'Dentist', date: '2026-12-10', time: '09:00', endTime: '09:30' });
    await create(api, {
      title: 'Yoga',
      date: '2026-12-02',
      time: '07:00',
      repeatFrequency: 'daily',
      repeatUntil: '2026-12-05',
    });
    await create(api, { title: 'Rent', date: '2026-10-31', repeatFrequency: 'monthly' });
    await create(api, {
      title: 'Choir',
      date: '2026-12-02',
      time: '19:30',
      repeatFrequency: 'custom',
      repeatDays: [3, 5],
      repeatInterval: 2,
    });
    await create(api, {
      title: 'Night shift',
      date: '2026-12-11',
      time: '22:00',
      endDate: '2026-12-12',
      endTime: '06:00',
    });

    const listed: string[][] = [];
    let cursor = '';
    for (;;) {
      const r = await api.get(
        `/calendar/events?from=2026-12-01&to=2026-12-31&limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      for (const e of r.body.events) {
        const d = e.data;
        if (d.allDay) {
          listed.push([d.date, d.endDate ?? d.date, e.title]);
          continue;
        }
        // The end by the documented rule (docs/decisions.md, Calendar): endTime on endDate or
        // date; else a later endDate ends at its midnight; else durationMinutes (default 60).
        const start = localToInstant(d.date, d.time, 'Europe/Berlin');
        const end = d.endTime
          ? localToInstant(d.endDate ?? d.date, d.endTime, 'Europe/Berlin')
          : d.endDate && d.endDate > d.date
            ? localToInstant(nextDay(d.endDate), '00:00', 'Europe/Berlin')
            : new Date(start.getTime() + (d.durationMinutes ?? 60) * 60_000);
        listed.push([start.toISOString(), end.toISOString(), e.title]);
      }
      if (!r.body.nextCursor) break;
      cursor = r.body.nextCursor;
    }

    const s = await share(api, { name: 'Everything' });
    const ics = (await server.http.get(s.path)).text;
    const found = new IcalExpander({ ics, maxIterations: 1000 }).between(
      new Date('2026-11-30T23:00:00Z'),
      new Date('2026-12-31T23:00:00Z'),
    );
    const show = (start: any, end: any, summary: string) =>
      start.isDate
        ? // DTEND of an all-day event is exclusive: the listing's endDate is the day before.
          [
            start.toString(),
            end.adjust
              ? (() => {
                  const e = end.clone();
                  e.adjust(-1, 0, 0, 0);
                  return e.toString();
                })()
              : end.toString(),
            summary,
          ]
        : [start.toJSDate().toISOString(), end.toJSDate().toISOString(), summary];
    const expanded = [
      ...found.occurrences.map((o: any) => show(o.startDate, o.endDate, o.item.summary)),
      ...found.events.map((e: any) => show(e.startDate, e.endDate, e.summary)),
    ];
    const sort = (xs: string[][]) => xs.map((x) => x.join(' | ')).sort();
    expect(listed.length).to.equal(17);
    expect(sort(expanded)).to.deep.equal(sort(listed));
  });
});

describe('calendar share UIDs across a change of publicUrl', () => {
  it('keeps every UID when the daemon restarts on the same data with another HOUSEHOLD_PUBLIC_URL', async () => {
    const first = await startTestServer({
      timezone: 'Europe/Berlin',
      overrides: { server: { host: '127.0.0.1', port: 0, publicUrl: 'http://localhost:8080' } },
    });
    const dataDir = first.dataDir;
    const familyId = first.daemon.store.getFamilyBySlug('home')!.id;
    const ids: string[] = [];
    for (const body of [
      { title: 'Swimming', date: '2026-12-01', time: '16:30', repeatFrequency: 'weekly' },
      { title: 'Dentist', date: '2026-12-03', time: '09:00' },
      { title: 'Holiday', date: '2026-12-20', endDate: '2026-12-27' },
    ]) {
      const r = await first.api.post('/calendar/events', body);
      expect(r.status, JSON.stringify(r.body)).to.equal(201);
      ids.push(r.body.entryId);
    }
    // A changed occurrence is written as a second VEVENT with the series' UID.
    const moved = await first.api.patch(`/calendar/events/${ids[0]}`, {
      editScope: 'occurrence',
      occurrenceDate: '2026-12-08',
      time: '17:00',
    });
    expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
    const created = await first.api.post('/calendar/shares', { name: 'Everything' });
    expect(created.body.url).to.match(/^http:\/\/localhost:8080\/share\/calendar\//);
    const path = new URL(created.body.url).pathname;
    const uids = (ics: string) => [...ics.matchAll(/^UID:(.*)\r$/gm)].map((m) => m[1]);
    const before = uids((await first.http.get(path)).text);
    await first.close({ keepData: true });

    const second = await startTestServer({
      dataDir,
      timezone: 'Europe/Berlin',
      overrides: { server: { host: '127.0.0.1', port: 0, publicUrl: 'https://home.example.org' } },
    });
    try {
      const again = await second.api.post('/calendar/shares', { name: 'Everything again' });
      expect(again.body.url).to.match(/^https:\/\/home\.example\.org\/share\/calendar\//);
      const after = uids((await second.http.get(path)).text);
      expect(before).to.have.length(4);
      expect(after).to.deep.equal(before);
      expect([...new Set(after)].sort()).to.deep.equal(
        ids.map((id) => `${id}@${familyId}.household-organizer`).sort(),
      );
      expect(after.join(' ')).to.not.match(/localhost|example\.org/);
    } finally {
      await second.close();
    }
  });
});
