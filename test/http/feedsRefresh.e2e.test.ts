import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { changesAfter, lastSeq } from '../helpers/changes.js';
import { FakeClock } from '../helpers/clock.js';
import { startIcsServer, type IcsServer } from '../helpers/fakes/icsServer.js';
import { calendar, type VEvent } from '../helpers/fakes/icsText.js';

const TZ = 'DTSTART;TZID=Europe/Berlin';
const trip = (over: Partial<VEvent> = {}): VEvent => ({
  uid: 'trip@school',
  summary: 'Class trip to the zoo',
  lines: [`${TZ}:20261124T083000`, 'DTEND;TZID=Europe/Berlin:20261124T150000'],
  ...over,
});
const choir = (extra: string[] = []): VEvent => ({
  uid: 'choir@school',
  summary: 'Choir',
  lines: [
    `${TZ}:20261102T160000`,
    'DTEND;TZID=Europe/Berlin:20261102T170000',
    'RRULE:FREQ=WEEKLY;BYDAY=MO',
    ...extra,
  ],
});
const closed: VEvent = {
  uid: 'closed@school',
  summary: 'School closed',
  lines: ['DTSTART;VALUE=DATE:20261127'],
};

const MIN = 60_000;

async function events(server: TestServer, from: string, to: string): Promise<any[]> {
  const r = await server.api.get(`/calendar/events?from=${from}&to=${to}&limit=50`);
  expect(r.status).to.equal(200);
  return r.body.events;
}

async function feedOf(server: TestServer): Promise<any> {
  return (await server.api.get('/calendar/external')).body.feeds[0];
}

describe('refreshing external calendar feeds', () => {
  let server: TestServer;
  let feeds: IcsServer;
  let clock: FakeClock;
  beforeEach(async () => {
    clock = new FakeClock('2026-11-22T08:30:00.000Z');
    feeds = await startIcsServer();
    server = await startTestServer({ timezone: 'Europe/Berlin', now: clock.now });
  });
  afterEach(async () => {
    await server.close();
    await feeds.close();
  });

  async function link(
    body: string,
    extra: Record<string, unknown> = {},
    route: Record<string, unknown> = {},
  ): Promise<string> {
    feeds.set('/school.ics', { body, ...route });
    const r = await server.api.post('/calendar/external', {
      name: 'School',
      url: feeds.url('/school.ics'),
      ...extra,
    });
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    return r.body.sourceId;
  }

  /** Moves the clock past the next scheduled refresh and runs what is due. */
  async function nextRefresh(): Promise<void> {
    const due = Date.parse((await feedOf(server)).nextRefreshAt);
    clock.set(new Date(due + 1000));
    await server.daemon.scheduler.runDue();
  }

  it('refreshes every refreshMinutes with jitter, sending the validators; a 304 moves only lastSyncedAt', async () => {
    await link(calendar([trip()]));
    const first = await feedOf(server);
    const due = Date.parse(first.nextRefreshAt) - clock.now().getTime();
    expect(due).to.be.within(60 * MIN, 66 * MIN);
    clock.advance(59 * MIN);
    expect(await server.daemon.scheduler.runDue()).to.equal(0);
    expect(feeds.seen('/school.ics')).to.have.length(1);

    const seq = await lastSeq(server.api);
    await nextRefresh();
    const sent = feeds.seen('/school.ics');
    expect(sent).to.have.length(2);
    expect(sent[1].headers['if-none-match']).to.match(/^"[0-9a-f]{16}"$/);
    const after = await feedOf(server);
    expect(after.lastSyncedAt).to.equal(clock.now().toISOString());
    expect(after.lastError).to.equal(null);
    expect(Date.parse(after.nextRefreshAt) - clock.now().getTime()).to.be.within(
      60 * MIN,
      66 * MIN,
    );
    expect(await changesAfter(server.api, seq)).to.deep.equal([]);
  });

  it('sends If-Modified-Since when the feed gives Last-Modified and no ETag', async () => {
    await link(
      calendar([trip()]),
      {},
      { etag: false, lastModified: 'Sat, 21 Nov 2026 10:00:00 GMT' },
    );
    await nextRefresh();
    const sent = feeds.seen('/school.ics')[1];
    expect(sent.headers['if-modified-since']).to.equal('Sat, 21 Nov 2026 10:00:00 GMT');
    expect(sent.headers['if-none-match']).to.equal(undefined);
    expect((await feedOf(server)).lastSyncedAt).to.equal(clock.now().toISOString());
  });

  it('writes nothing when the body is the same, or differs only in DTSTAMP', async () => {
    await link(calendar([trip(), choir()]), {}, { etag: false });
    const before = await events(server, '2026-11-23', '2026-11-24');
    const seq = await lastSeq(server.api);
    await nextRefresh(); // the same bytes: skipped by their hash
    feeds.set('/school.ics', {
      body: calendar([trip(), choir()]).replaceAll(
        'DTSTAMP:20261101T000000Z',
        'DTSTAMP:20261122T093000Z',
      ),
      etag: false,
    });
    await nextRefresh(); // new bytes, same events
    expect(feeds.seen('/school.ics')).to.have.length(3);
    expect(await changesAfter(server.api, seq)).to.deep.equal([]);
    expect(await events(server, '2026-11-23', '2026-11-24')).to.deep.equal(before);
    expect((await feedOf(server)).lastSyncedAt).to.equal(clock.now().toISOString());
  });

  it("lays new content under the family's overlays: ids, notes, attendance, occurrence changes and plan links stay", async () => {
    await link(calendar([trip(), choir(), closed]));
    const [choirEv, tripEv] = await events(server, '2026-11-23', '2026-11-24');
    const closedEv = (await events(server, '2026-11-27', '2026-11-27'))[0];
    const ana = (await server.api.post('/people', { name: 'Ana' })).body.person.id;
    const overlay = {
      note: 'Ana drives',
      attendance: { [ana]: 'going' },
      status: 'done',
      ownerPersonId: ana,
      responsiblePersonIds: [ana],
      responsibilityRequired: true,
      everyoneAttendance: 'maybe',
      reminders: [{ offsetMinutes: 30, channels: ['push'] }],
      travelPlan: { origin: 'Home', baseTravelMinutes: 25, arriveEarlyMinutes: 5 },
    };
    expect((await server.api.patch(`/calendar/events/${tripEv.id}`, overlay)).status).to.equal(200);
    expect(
      (
        await server.api.patch(`/calendar/events/${choirEv.id}`, {
          editScope: 'occurrence',
          occurrenceDate: '2026-11-30',
          note: 'Concert rehearsal',
        })
      ).status,
    ).to.equal(200);
    const plan = (await server.api.post('/plans', { title: 'Term' })).body.planId;
    for (const id of [tripEv.id, choirEv.id, closedEv.id])
      expect((await server.api.post(`/plans/${plan}/events`, { eventId: id })).status).to.equal(
        201,
      );

    const seq = await lastSeq(server.api);
    feeds.set('/school.ics', {
      body: calendar([
        trip({
          summary: 'Class trip to the zoo (new time)',
          lines: [`${TZ}:20261124T090000`, 'DTEND;TZID=Europe/Berlin:20261124T153000'],
        }),
        choir(['EXDATE;TZID=Europe/Berlin:20261207T160000']),
        {
          uid: 'choir@school',
          summary: 'Choir',
          lines: [
            'RECURRENCE-ID;TZID=Europe/Berlin:20261130T160000',
            `${TZ}:20261130T170000`,
            'DTEND;TZID=Europe/Berlin:20261130T180000',
          ],
        },
        { uid: 'evening@school', summary: "Parents' evening", lines: [`${TZ}:20261126T190000`] },
      ]),
    });
    await nextRefresh();

    const week = await events(server, '2026-11-23', '2026-12-08');
    expect(
      week.map((e) => [e.id, e.title, e.data.date, e.data.time, e.data.note ?? null, e.status]),
    ).to.deep.equal([
      [choirEv.id, 'Choir', '2026-11-23', '16:00', null, 'active'],
      [tripEv.id, 'Class trip to the zoo (new time)', '2026-11-24', '09:00', 'Ana drives', 'done'],
      [week[2].id, "Parents' evening", '2026-11-26', '19:00', null, 'active'],
      [choirEv.id, 'Choir', '2026-11-30', '17:00', 'Concert rehearsal', 'active'],
    ]);
    expect(week[1].data).to.deep.include({
      attendance: { [ana]: 'going' },
      ownerPersonId: ana,
      responsiblePersonIds: [ana],
      responsibilityRequired: true,
      everyoneAttendance: 'maybe',
      reminders: [
        {
          offsetMinutes: 30,
          audience: 'household',
          channels: ['push'],
          mode: 'plain',
          recipientPersonIds: [],
        },
      ],
      travelPlan: {
        origin: 'Home',
        baseTravelMinutes: 25,
        arriveEarlyMinutes: 5,
        leaveAt: '2026-11-24T08:30',
      },
    });
    const detail = (await server.api.get(`/plans/${plan}`)).body;
    expect(detail.events.map((e: any) => e.eventId)).to.deep.equal([tripEv.id, choirEv.id]);
    expect(detail.events[0].title).to.equal('Class trip to the zoo (new time)');

    const log = await changesAfter(server.api, seq);
    const updated = log.filter((c) => c.type === 'external_calendar.updated');
    expect(updated).to.have.length(1);
    expect(updated[0].object.refresh).to.deep.equal({ added: 1, changed: 2, removed: 1 });
    expect(updated[0].object.eventCount).to.equal(3);
    expect(log.map((c) => c.type)).to.include('plan.event.unlinked');
  });

  it('keeps the last good events when a refresh fails, records lastError once, and clears it after a good one', async () => {
    await link(calendar([trip()]));
    const good = await events(server, '2026-11-24', '2026-11-24');
    const seq = await lastSeq(server.api);
    feeds.set('/school.ics', { status: 500, body: 'oops' });
    await nextRefresh();
    let feed = await feedOf(server);
    expect(feed).to.include({
      lastError: 'the feed answered HTTP 500',
      lastErrorAt: clock.now().toISOString(),
    });
    expect(await events(server, '2026-11-24', '2026-11-24')).to.deep.equal(good);
    await nextRefresh(); // the same error again: no second log record
    feeds.set('/school.ics', { body: 'not a calendar' });
    await nextRefresh();
    feed = await feedOf(server);
    expect(feed.lastError).to.equal(
      'the feed is not an iCalendar feed (it starts with "not a calendar")',
    );
    feeds.set('/school.ics', { body: calendar([trip()]) });
    await nextRefresh();
    feed = await feedOf(server);
    expect(feed).to.include({
      lastError: null,
      lastErrorAt: null,
      lastSyncedAt: clock.now().toISOString(),
    });
    const log = await changesAfter(server.api, seq);
    expect(log.map((c) => [c.type, c.object.lastError])).to.deep.equal([
      ['external_calendar.updated', 'the feed answered HTTP 500'],
      [
        'external_calendar.updated',
        'the feed is not an iCalendar feed (it starts with "not a calendar")',
      ],
      ['external_calendar.updated', null],
    ]);
  });

  it("lets a feed's REFRESH-INTERVAL lengthen the interval, never shorten it", async () => {
    await link(calendar([trip()], ['REFRESH-INTERVAL;VALUE=DURATION:PT4H']));
    let feed = await feedOf(server);
    expect(feed.ttlMinutes).to.equal(240);
    expect(Date.parse(feed.nextRefreshAt) - clock.now().getTime()).to.be.within(
      240 * MIN,
      264 * MIN,
    );
    feeds.set('/school.ics', { body: calendar([trip()], ['X-PUBLISHED-TTL:PT15M']) });
    await nextRefresh();
    feed = await feedOf(server);
    expect(feed.ttlMinutes).to.equal(15);
    expect(Date.parse(feed.nextRefreshAt) - clock.now().getTime()).to.be.within(60 * MIN, 66 * MIN);
  });

  it('answers a requested refresh at once and runs it from the agenda', async () => {
    const sourceId = await link(calendar([trip()]));
    feeds.set('/school.ics', { body: calendar([trip(), closed]) });
    const seq = await lastSeq(server.api);
    const r = await server.api.post(`/calendar/external/${sourceId}/refresh`);
    expect(r.status).to.equal(200);
    expect(r.body).to.include({ ok: true, sourceId, queued: true });
    expect(r.body.feed.nextRefreshAt).to.equal(clock.now().toISOString());
    await server.daemon.scheduler.runDue();
    expect((await feedOf(server)).eventCount).to.equal(2);
    const log = await changesAfter(server.api, seq);
    expect(log.map((c) => c.type)).to.deep.equal([
      'external_calendar.refresh_requested',
      'external_calendar.updated',
    ]);
    expect(
      (await server.api.post('/calendar/external/src_00000000000000000000/refresh')).status,
    ).to.equal(404);
  });

  it('records what matched the hint among added and changed events as intake', async () => {
    await link(calendar([trip(), choir()]), { hint: 'Trip, concert' });
    const seq = await lastSeq(server.api);
    feeds.set('/school.ics', {
      body: calendar([
        trip({ description: 'Bring boots' }),
        choir(),
        { uid: 'xmas@school', summary: 'Christmas CONCERT', lines: [`${TZ}:20261218T180000`] },
        { uid: 'sports@school', summary: 'Sports day', lines: ['DTSTART;VALUE=DATE:20261210'] },
      ]),
    });
    await nextRefresh();
    const log = await changesAfter(server.api, seq);
    expect(log[0].type).to.equal('external_calendar.updated');
    expect(log[0].object.intake.titles).to.have.members([
      'Class trip to the zoo',
      'Christmas CONCERT',
    ]);
    expect(log[0].object.intake.eventIds).to.have.length(2);
    // …and the household hears of it: one intake_update notification, in the same commit.
    const sent = log.filter((c) => c.type === 'notification.sent').map((c) => c.object);
    expect(sent).to.have.length(1);
    expect(sent[0]).to.include({
      kind: 'intake_update',
      triggerId: (await feedOf(server)).sourceId,
    });
    expect(sent[0].title).to.match(/^New in .+: /);
    expect(sent[0].title).to.include('Class trip to the zoo').and.include('Christmas CONCERT');
    expect(
      sent[0].deliveries.map((d: any) => [d.channel, d.status, d.reason ?? null]),
    ).to.deep.include.members([
      ['in_app', 'delivered', null],
      ['email', 'suppressed', 'not configured'],
      ['push', 'suppressed', 'not configured'],
    ]);
    expect(
      (await server.api.get(`/notifications?triggerId=${sent[0].triggerId}`)).body.notifications,
    ).to.have.length(1);
    // Without a hint there is no intake.
    await server.api.patch(`/calendar/external/${(await feedOf(server)).sourceId}`, { hint: null });
    const seq2 = await lastSeq(server.api);
    feeds.set('/school.ics', { body: calendar([trip({ description: 'Bring boots and a hat' })]) });
    await nextRefresh();
    const log2 = await changesAfter(server.api, seq2);
    expect(log2[0].object).not.to.have.property('intake');
    expect(log2.filter((c) => c.type === 'notification.sent')).to.deep.equal([]);
  });

  it('moves a reminder the family laid on a feed event when the feed moves it, and drops it when the feed removes it', async () => {
    await link(
      calendar([
        { ...trip(), lines: [`${TZ}:20261126T083000`, 'DTEND;TZID=Europe/Berlin:20261126T150000'] },
        closed,
      ]),
    );
    const ev = (await events(server, '2026-11-26', '2026-11-26'))[0];
    expect(
      (await server.api.patch(`/calendar/events/${ev.id}`, { reminders: [{ offsetMinutes: 60 }] }))
        .status,
    ).to.equal(200);
    const familyId = server.daemon.store.getFamilyBySlug('home')!.id;
    const reminders = () =>
      server.daemon.store
        .familyJobs(familyId)
        .filter((j) => j.kind === 'notify.reminder')
        .map((j) => new Date(j.dueAt).toISOString());
    // 08:30 in Berlin (UTC+1) less an hour.
    expect(reminders()).to.deep.equal(['2026-11-26T06:30:00.000Z']);
    feeds.set('/school.ics', {
      body: calendar([
        { ...trip(), lines: [`${TZ}:20261126T100000`, 'DTEND;TZID=Europe/Berlin:20261126T150000'] },
        closed,
      ]),
    });
    await nextRefresh();
    expect(reminders()).to.deep.equal(['2026-11-26T08:00:00.000Z']);
    feeds.set('/school.ics', { body: calendar([closed]) });
    await nextRefresh();
    expect(reminders()).to.deep.equal([]);
  });

  it('puts a refresh found too late (the daemon was down) again within five minutes instead of running it', async () => {
    await link(calendar([trip()]));
    const due = Date.parse((await feedOf(server)).nextRefreshAt);
    clock.set(new Date(due + 7 * 60 * MIN)); // past scheduler.catchUpMinutes (6 h)
    await server.daemon.scheduler.runDue();
    expect(feeds.seen('/school.ics')).to.have.length(1);
    const next = Date.parse((await feedOf(server)).nextRefreshAt) - clock.now().getTime();
    expect(next).to.be.within(0, 5 * MIN);
    clock.advance(5 * MIN + 1000);
    await server.daemon.scheduler.runDue();
    expect(feeds.seen('/school.ics')).to.have.length(2);
  });
});
