import { expect } from 'chai';
import { createRequire } from 'node:module';
import { startTestServer, type Client, type TestServer } from '../helpers/server.js';
import { conforms } from '../helpers/contract.js';
import { FakeClock } from '../helpers/clock.js';
import { makeEvent, makePlan, sharePath } from '../helpers/plans.js';

// ical.js ships no types; it is the reference reader here.
const ICAL = createRequire(import.meta.url)('ical.js');

const ICS = '/p/{token}.ics';

function vevents(ics: string): any[] {
  return new ICAL.Component(ICAL.parse(ics)).getAllSubcomponents('vevent');
}

describe('GET /p/:token.ics', () => {
  const clock = new FakeClock('2026-06-01T10:00:00.000Z');
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ now: clock.now, timezone: 'Europe/Berlin' });
  });
  after(() => server?.close());

  async function sharedPlan(api: Client = server.api) {
    const plan = await makePlan(api, 'Grandma’s 80th: «party»');
    const lunch = await makeEvent(api, {
      title: 'Lunch at the hall',
      date: '2026-06-13',
      time: '12:30',
      endTime: '15:00',
      where: '12 Secret Lane',
      note: 'Present budget 300',
    });
    const cake = await makeEvent(api, {
      title: 'Garden cake',
      date: '2026-06-14',
      where: 'Rose Cottage',
    });
    const secret = await makeEvent(api, {
      title: 'Buy the present',
      date: '2026-06-12',
      time: '09:00',
      where: 'Mall',
      repeatFrequency: 'weekly',
    });
    const unlinked = await makeEvent(api, { title: 'Not in the plan', date: '2026-06-13' });
    await api.post(`/plans/${plan}/events`, { eventId: lunch });
    await api.post(`/plans/${plan}/events`, { eventId: cake, showLocationOnShare: true });
    await api.post(`/plans/${plan}/events`, {
      eventId: secret,
      showDetailsOnShare: false,
      showLocationOnShare: true,
    });
    const share = (await api.post(`/plans/${plan}/share`, { enabled: true })).body
      .shareUrl as string;
    return { plan, lunch, cake, secret, unlinked, path: sharePath(share) };
  }

  it("answers the plan's events as the page shows them, in the family's zone, without a key", async () => {
    const { path, plan, lunch, cake, secret } = await sharedPlan();
    const r = await server.http.get(`${path}.ics`);
    expect(r.status).to.equal(200);
    await conforms(server, r, 'get', ICS);
    expect(r.headers.get('content-type')).to.equal('text/calendar; charset=utf-8');
    expect(r.headers.get('content-disposition')).to.equal(
      'attachment; filename="Grandmas-80th-party.ics"',
    );
    expect(r.headers.get('cache-control')).to.equal('no-store');
    expect(r.headers.get('referrer-policy')).to.equal('no-referrer');
    const cal = new ICAL.Component(ICAL.parse(r.text));
    expect(cal.getFirstPropertyValue('x-wr-calname')).to.equal('Grandma’s 80th: «party»');
    expect(cal.getFirstSubcomponent('vtimezone').getFirstPropertyValue('tzid')).to.equal(
      'Europe/Berlin',
    );
    const evs = vevents(r.text);
    const familyId = server.daemon.store.getFamilyBySlug('home')!.id;
    expect(
      evs.map((e) => ({
        uid: e.getFirstPropertyValue('uid'),
        summary: e.getFirstPropertyValue('summary'),
        location: e.getFirstPropertyValue('location'),
        start: e.getFirstPropertyValue('dtstart').toString(),
        end: e.getFirstPropertyValue('dtend').toString(),
        tz: e.getFirstProperty('dtstart').getParameter('tzid') ?? null,
        rrule: e.getFirstPropertyValue('rrule'),
        description: e.getFirstPropertyValue('description'),
      })),
    ).to.deep.equal([
      // Details not shared: the plan's title, no location even though it is flagged, one occurrence.
      {
        uid: `${plan}.${secret}@${familyId}.household-organizer`,
        summary: 'Grandma’s 80th: «party»',
        location: null,
        start: '2026-06-12T09:00:00',
        end: '2026-06-12T10:00:00',
        tz: 'Europe/Berlin',
        rrule: null,
        description: null,
      },
      // Location not shared; the note never is.
      {
        uid: `${plan}.${lunch}@${familyId}.household-organizer`,
        summary: 'Lunch at the hall',
        location: null,
        start: '2026-06-13T12:30:00',
        end: '2026-06-13T15:00:00',
        tz: 'Europe/Berlin',
        rrule: null,
        description: null,
      },
      {
        uid: `${plan}.${cake}@${familyId}.household-organizer`,
        summary: 'Garden cake',
        location: 'Rose Cottage',
        start: '2026-06-14',
        end: '2026-06-15',
        tz: null,
        rrule: null,
        description: null,
      },
    ]);
    expect(r.text).to.not.match(/Secret Lane|Mall|budget|Buy the present|Not in the plan/);
  });

  it("keeps each event's UID when the event changes, apart from the same event in a calendar share", async () => {
    const { path, lunch } = await sharedPlan();
    const uids = async () =>
      vevents((await server.http.get(`${path}.ics`)).text).map((e) =>
        e.getFirstPropertyValue('uid'),
      );
    const before = await uids();
    await server.api.patch(`/calendar/events/${lunch}`, { title: 'Lunch moved', time: '13:00' });
    const after = await uids();
    expect(after).to.deep.equal(before);
    const summaries = vevents((await server.http.get(`${path}.ics`)).text).map((e) =>
      e.getFirstPropertyValue('summary'),
    );
    expect(summaries).to.include('Lunch moved');
    const feed = await server.api.post('/calendar/shares', { name: 'All', eventIds: [lunch] });
    const feedUids = vevents((await server.http.get(new URL(feed.body.url).pathname)).text).map(
      (e) => e.getFirstPropertyValue('uid'),
    );
    expect(feedUids).to.have.length(1);
    expect(after).to.not.include(feedUids[0]);
  });

  it('answers 404 for unknown, malformed and disabled tokens, and for calendar-share tokens', async () => {
    const { path, plan } = await sharedPlan();
    const feed = await server.api.post('/calendar/shares', { name: 'Some' });
    const expected = { ok: false, error: 'No shared plan at this address', code: 'not_found' };
    for (const p of [
      '/p/pln_00000000000000000000000000000000.ics',
      '/p/nope.ics',
      `/p/${feed.body.token}.ics`,
    ]) {
      const r = await server.http.get(p);
      expect(r.status, p).to.equal(404);
      expect(r.body, p).to.deep.equal(expected);
      await conforms(server, r, 'get', ICS);
    }
    await server.api.post(`/plans/${plan}/share`, { enabled: false });
    expect((await server.http.get(`${path}.ics`)).body).to.deep.equal(expected);
    await server.api.post(`/plans/${plan}/share`, { enabled: true });
    expect((await server.http.get(`${path}.ics`)).status).to.equal(200);
  });
});

describe("GET /p/:token times in the family's convention", () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ now: new FakeClock('2026-06-01T10:00:00.000Z').now });
  });
  after(() => server?.close());

  async function page(timezone: string, locale?: string) {
    const fam = await server.family(
      `fam-${timezone.replace(/[^A-Za-z0-9]+/g, '-').toLowerCase()}${locale ? `-${locale.toLowerCase()}` : ''}`,
      { timezone, ...(locale ? { locale } : {}) },
    );
    const api = fam.client;
    const plan = await makePlan(api, 'Picnic');
    await api.post(`/plans/${plan}/events`, {
      eventId: await makeEvent(api, {
        title: 'Picnic',
        date: '2026-06-13',
        time: '15:30',
        endTime: '18:00',
      }),
    });
    await api.post(`/plans/${plan}/polls`, {
      question: 'Rain date?',
      options: [
        { label: 'Sunday', date: '2026-06-14', time: '09:05', endTime: '12:00' },
        { label: 'Never' },
      ],
    });
    const path = sharePath(
      (await api.post(`/plans/${plan}/share`, { enabled: true })).body.shareUrl,
    );
    const html = (await server.http.get(path)).text;
    const json = (await server.http.get(path, { headers: { accept: 'application/json' } })).body;
    return { html, json, token: path.slice('/p/'.length) };
  }

  // The JSON keeps the contract's English `when` on the zone's convention; the HTML page speaks
  // the family's locale (docs/i18n.md): its clock, its words, the zone named.
  it('writes 12-hour times for a zone of the United States, naming the zone', async () => {
    for (const tz of ['America/New_York', 'America/Indiana/Indianapolis', 'Pacific/Honolulu']) {
      const { html, json } = await page(tz);
      expect(json.timezone, tz).to.equal(tz);
      expect(json.events[0].when, tz).to.equal('Sat, Jun 13, 2026, 3:30 PM – 6:00 PM');
      expect(json.polls[0].options[0].when, tz).to.equal('Sun, Jun 14, 2026, 9:05 AM – 12:00 PM');
      expect(html, tz)
        .to.match(/3:30\sPM/)
        .and.contain(`<p class="zone" id="zone">Times in <bdi>${tz}</bdi></p>`);
    }
  });

  it('writes 24-hour times everywhere else in the JSON, and the family locale’s clock on the page', async () => {
    for (const tz of [
      'Europe/Berlin',
      'America/Toronto',
      'America/Sao_Paulo',
      'Asia/Tokyo',
      'UTC',
    ]) {
      const { html, json, token } = await page(tz);
      expect(json.events[0].when, tz).to.equal('Sat, Jun 13, 2026, 15:30 – 18:00');
      expect(json.polls[0].options[0].when, tz).to.equal('Sun, Jun 14, 2026, 09:05 – 12:00');
      // A family that never chose a locale reads en, which CLDR writes on a 12-hour clock.
      expect(html, tz)
        .to.match(/3:30\sPM/)
        .and.contain(`Times in <bdi>${tz}</bdi>`);
      expect(html, tz).to.contain(
        `<a id="add-to-calendar" href="${token}.ics" type="text/calendar">Add to my calendar</a>`,
      );
    }
  });

  it('writes the page on the clock and in the words of the family’s locale', async () => {
    const gb = await page('Europe/Berlin', 'en-GB');
    expect(gb.html)
      .to.contain('15:30')
      .and.not.match(/3:30\sPM/);
    expect(gb.json.events[0].when).to.equal('Sat, Jun 13, 2026, 15:30 – 18:00');
    const de = await page('Europe/Berlin', 'de-DE');
    expect(de.html)
      .to.contain('<html lang="de-DE" dir="ltr">')
      .and.contain('15:30')
      .and.contain('<bdi>Europe/Berlin</bdi>')
      .and.not.contain('Times in');
  });

  it('names no zone and offers no calendar file for a plan with nothing dated', async () => {
    const fam = await server.family('undated');
    const plan = await makePlan(fam.client, 'Someday');
    const path = sharePath(
      (await fam.client.post(`/plans/${plan}/share`, { enabled: true })).body.shareUrl,
    );
    const html = (await server.http.get(path)).text;
    expect(html).to.not.contain('Times in').and.not.contain('Add to my calendar');
    expect(vevents((await server.http.get(`${path}.ics`)).text)).to.deep.equal([]);
  });
});
