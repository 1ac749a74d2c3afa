import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { changesAfter, lastSeq } from '../helpers/changes.js';
import { startIcsServer, type IcsServer } from '../helpers/fakes/icsServer.js';
import { calendar } from '../helpers/fakes/icsText.js';

const SCHOOL = calendar(
  [
    {
      uid: 'trip@school',
      summary: 'Class trip to the zoo',
      description: 'Bring a packed lunch',
      lines: [
        'DTSTART;TZID=Europe/Berlin:20261124T083000',
        'DTEND;TZID=Europe/Berlin:20261124T150000',
        'LOCATION:Tierpark',
      ],
    },
    {
      uid: 'closed@school',
      summary: 'School closed',
      lines: ['DTSTART;VALUE=DATE:20261127', 'DTEND;VALUE=DATE:20261128'],
    },
    {
      uid: 'choir@school',
      summary: 'Choir',
      lines: [
        'DTSTART;TZID=Europe/Berlin:20261102T160000',
        'DTEND;TZID=Europe/Berlin:20261102T170000',
        'RRULE:FREQ=WEEKLY;BYDAY=MO',
      ],
    },
  ],
  ['X-WR-CALNAME:Springfield Elementary', 'X-WR-TIMEZONE:Europe/Berlin'],
);

async function allEvents(server: TestServer, from: string, to: string): Promise<any[]> {
  const out: any[] = [];
  let cursor = '';
  for (;;) {
    const r = await server.api.get(
      `/calendar/events?from=${from}&to=${to}&limit=50${cursor ? `&cursor=${cursor}` : ''}`,
    );
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    out.push(...r.body.events);
    if (!r.body.nextCursor) return out;
    cursor = r.body.nextCursor;
  }
}

describe('POST /calendar/external', () => {
  let server: TestServer;
  let feeds: IcsServer;
  before(async () => {
    server = await startTestServer({ timezone: 'Europe/Berlin' });
    feeds = await startIcsServer();
  });
  after(async () => {
    await server.close();
    await feeds.close();
  });

  it("links a feed: its events land in a read-only calendar and show in the family's listing", async () => {
    feeds.set('/school.ics', { body: SCHOOL });
    const seq = await lastSeq(server.api);
    const r = await server.api.post('/calendar/external', {
      name: 'School',
      url: feeds.url('/school.ics'),
      color: 'blue',
      hint: 'trip',
    });
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    expect(r.body).to.include({ ok: true, eventCount: 3, calendarKey: 'school' });
    expect(r.body.sourceId).to.match(/^src_[0-9a-z]{20}$/);
    const sourceId = r.body.sourceId;

    const list = (await server.api.get('/calendar/external')).body.feeds;
    expect(list).to.have.length(1);
    expect(list[0]).to.deep.include({
      sourceId,
      name: 'School',
      color: 'blue',
      hint: 'trip',
      calendarKey: 'school',
      eventCount: 3,
      lastError: null,
      calendarName: 'Springfield Elementary',
      url: `${feeds.origin}/***`,
    });
    expect(Date.parse(list[0].lastSyncedAt)).to.be.greaterThan(0);
    expect(Date.parse(list[0].nextRefreshAt) - Date.parse(list[0].lastSyncedAt)).to.be.within(
      60 * 60_000,
      66 * 60_000,
    );

    const tracker = (await server.api.get('/trackers')).body.trackers.find(
      (t: any) => t.key === 'school',
    );
    expect(tracker).to.include({ name: 'School', category: 'calendar', color: 'blue', sourceId });

    const events = await allEvents(server, '2026-11-23', '2026-11-30');
    expect(
      events.map((e) => [
        e.title,
        e.data.date,
        e.data.time,
        e.data.endTime,
        e.calendarKey,
        e.sourceId,
      ]),
    ).to.deep.equal([
      ['Choir', '2026-11-23', '16:00', '17:00', 'school', sourceId],
      ['Class trip to the zoo', '2026-11-24', '08:30', '15:00', 'school', sourceId],
      ['School closed', '2026-11-27', null, null, 'school', sourceId],
      ['Choir', '2026-11-30', '16:00', '17:00', 'school', sourceId],
    ]);
    const trip = events[1];
    expect(trip.data).to.include({ where: 'Tierpark', description: 'Bring a packed lunch' });
    expect(trip.feed).to.deep.equal({ uid: 'trip@school' });
    expect(events[0].feed).to.deep.equal({
      uid: 'choir@school',
      rrule: 'FREQ=WEEKLY;BYDAY=MO',
      timezone: 'Europe/Berlin',
    });

    // The calendar is read-only through the entries endpoints too.
    const write = await server.api.post('/trackers/school/entries', { title: 'Mine' });
    expect(write.status).to.equal(409);
    const made = await server.api.post('/calendar/events', {
      title: 'Mine',
      date: '2026-11-25',
      calendarKey: 'school',
    });
    expect(made.status).to.equal(409);

    const log = await changesAfter(server.api, seq);
    expect(log.map((c) => c.type)).to.deep.equal([
      'collection.created',
      'external_calendar.created',
    ]);
    expect(log[1].object).to.deep.include({ sourceId, eventCount: 3, url: `${feeds.origin}/***` });
    // One record for the link, not one per event.
    expect(JSON.stringify(log)).not.to.contain('Class trip');
  });

  it('names the feed after its X-WR-CALNAME when no name is sent', async () => {
    feeds.set('/named.ics', {
      body: calendar(
        [{ uid: 'a', summary: 'A', lines: ['DTSTART;VALUE=DATE:20261201'] }],
        ['X-WR-CALNAME:Football club'],
      ),
    });
    const r = await server.api.post('/calendar/external', { url: feeds.url('/named.ics') });
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    expect(r.body.feed).to.include({ name: 'Football club', calendarName: 'Football club' });
    expect(r.body.calendarKey).to.equal('football-club');
  });

  it('answers 409 for a name another collection has, without fetching', async () => {
    feeds.set('/taken.ics', { body: SCHOOL });
    const r = await server.api.post('/calendar/external', {
      name: 'meals',
      url: feeds.url('/taken.ics'),
    });
    expect(r.status).to.equal(409);
    expect(r.body.issues).to.deep.equal([{ path: ['name'], message: 'is already taken' }]);
    expect(feeds.seen('/taken.ics')).to.have.length(0);
  });

  it('sends credentials written in the URL as Basic auth and never shows them again', async () => {
    feeds.set('/private.ics', { body: SCHOOL, basic: { username: 'ana', password: 'p@ss:wörd' } });
    const seq = await lastSeq(server.api);
    const url = `http://ana:${encodeURIComponent('p@ss:wörd')}@127.0.0.1:${feeds.port}/private.ics?token=s3cret`;
    const r = await server.api.post('/calendar/external', { name: 'Private', url });
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    const auth = feeds.seen('/private.ics')[0].headers.authorization;
    expect(auth).to.equal(`Basic ${Buffer.from('ana:p@ss:wörd').toString('base64')}`);
    expect(r.body.feed.url).to.equal(`${feeds.origin}/***?***`);
    const everything = [
      r.text,
      (await server.api.get('/calendar/external')).text,
      JSON.stringify(await changesAfter(server.api, seq)),
    ].join('\n');
    for (const secret of ['ana', 'p@ss', 'p%40ss', 's3cret', 'private.ics'])
      expect(everything).not.to.contain(secret);
    // Without the credentials the same feed is refused, and the reason says so.
    const bare = await server.api.post('/calendar/external', {
      name: 'Private 2',
      url: feeds.url('/private.ics'),
    });
    expect(bare.status).to.equal(400);
    expect(bare.body.error).to.contain('HTTP 401').and.contain('user name and password');
  });

  it('reads a gzip-encoded feed', async () => {
    feeds.set('/zipped.ics', { body: SCHOOL, gzip: true });
    const r = await server.api.post('/calendar/external', {
      name: 'Zipped',
      url: feeds.url('/zipped.ics'),
    });
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    expect(r.body.eventCount).to.equal(3);
  });

  it('refuses a feed that cannot be read with 400 at url saying why, and saves nothing', async () => {
    const cases: [string, Parameters<IcsServer['set']>[1], string][] = [
      ['/gone.ics', { status: 404, body: 'nope' }, 'the feed answered HTTP 404'],
      [
        '/page.html',
        { body: '<!doctype html><html><body>Sign in</body></html>', contentType: 'text/html' },
        'the feed is not an iCalendar feed (it starts with "<!doctype html>',
      ],
      ['/empty.ics', { body: '' }, 'the feed is empty'],
      [
        '/cut.ics',
        { body: SCHOOL.slice(0, SCHOOL.indexOf('END:VEVENT')) },
        'the feed could not be read as iCalendar',
      ],
      [
        '/junk.ics',
        { body: 'BEGIN:VCALENDAR\r\nthis is not a content line\r\nEND:VCALENDAR\r\n' },
        'the feed could not be read as iCalendar',
      ],
    ];
    const before = (await server.api.get('/calendar/external')).body.feeds.length;
    const trackers = (await server.api.get('/trackers')).body.trackers.length;
    const seq = await lastSeq(server.api);
    for (const [path, route, reason] of cases) {
      feeds.set(path, route);
      const r = await server.api.post('/calendar/external', {
        name: `Bad ${path}`,
        url: feeds.url(path),
      });
      expect(r.status, path).to.equal(400);
      expect(r.body, path).to.include({ ok: false, code: 'invalid_request' });
      expect(r.body.issues[0].path, path).to.deep.equal(['url']);
      expect(r.body.issues[0].message, path).to.contain(reason);
    }
    expect((await server.api.get('/calendar/external')).body.feeds).to.have.length(before);
    expect((await server.api.get('/trackers')).body.trackers).to.have.length(trackers);
    expect(await lastSeq(server.api)).to.equal(seq);
  });

  it('accepts http, https and webcal URLs only, and reads webcal as https', async () => {
    for (const url of [
      'ftp://127.0.0.1/x.ics',
      'file:///etc/passwd',
      'javascript:alert(1)',
      '/relative.ics',
      'http://',
      ' ',
    ]) {
      const r = await server.api.post('/calendar/external', { name: 'X', url });
      expect(r.status, url).to.equal(400);
      expect(r.body.issues[0].path, url).to.deep.equal(['url']);
    }
    // webcal:// to the plain-HTTP feed server: the daemon speaks TLS, so no HTTP request arrives.
    feeds.set('/webcal.ics', { body: SCHOOL });
    const r = await server.api.post('/calendar/external/probe', {
      url: `webcal://127.0.0.1:${feeds.port}/webcal.ics`,
    });
    expect(r.status).to.equal(200);
    expect(r.body.ok).to.equal(false);
    expect(r.body.error).to.contain('could not be reached');
    expect(feeds.seen('/webcal.ics')).to.have.length(0);
  });

  it('needs the admin scope for every external-calendar endpoint', async () => {
    feeds.set('/auth.ics', { body: SCHOOL });
    const sourceId = (await server.api.get('/calendar/external')).body.feeds[0].sourceId;
    for (const scopes of [['read'], ['read', 'write']] as const) {
      const key = await server.key({ scopes: [...scopes] });
      const calls: [string, string, unknown?][] = [
        ['GET', '/calendar/external'],
        ['POST', '/calendar/external', { name: 'A', url: feeds.url('/auth.ics') }],
        ['POST', '/calendar/external/probe', { url: feeds.url('/auth.ics') }],
        ['PATCH', `/calendar/external/${sourceId}`, { hint: 'x' }],
        ['DELETE', `/calendar/external/${sourceId}`],
        ['POST', `/calendar/external/${sourceId}/refresh`],
      ];
      for (const [method, path, body] of calls) {
        const r = await server.api.request(method, path, { key, ...(body ? { body } : {}) });
        expect(r.status, `${scopes.join(',')} ${method} ${path}`).to.equal(403);
      }
    }
    expect(feeds.seen('/auth.ics')).to.have.length(0);
  });
});

describe('POST /calendar/external/probe', () => {
  let server: TestServer;
  let feeds: IcsServer;
  before(async () => {
    server = await startTestServer({ timezone: 'Europe/Berlin' });
    feeds = await startIcsServer();
  });
  after(async () => {
    await server.close();
    await feeds.close();
  });

  it('answers the event count and calendar name, and saves nothing', async () => {
    feeds.set('/school.ics', { body: SCHOOL });
    const seq = await lastSeq(server.api);
    const r = await server.api.post('/calendar/external/probe', { url: feeds.url('/school.ics') });
    expect(r.status).to.equal(200);
    expect(r.body).to.deep.equal({
      ok: true,
      eventCount: 3,
      calendarName: 'Springfield Elementary',
    });
    expect((await server.api.get('/calendar/external')).body.feeds).to.deep.equal([]);
    expect(await lastSeq(server.api)).to.equal(seq);
  });

  it('answers ok false with the reason when the feed cannot be read', async () => {
    feeds.set('/missing.ics', { status: 410, body: 'gone' });
    feeds.set('/text.ics', { body: 'hello', contentType: 'text/plain' });
    expect(
      (await server.api.post('/calendar/external/probe', { url: feeds.url('/missing.ics') })).body,
    ).to.deep.equal({ ok: false, error: 'the feed answered HTTP 410' });
    expect(
      (await server.api.post('/calendar/external/probe', { url: feeds.url('/text.ics') })).body,
    ).to.deep.equal({
      ok: false,
      error: 'the feed is not an iCalendar feed (it starts with "hello")',
    });
  });

  it('answers 400 for a missing or unusable URL', async () => {
    const missing = await server.api.post('/calendar/external/probe', {});
    expect(missing.status).to.equal(400);
    expect(missing.body.issues[0].path).to.deep.equal(['url']);
    const scheme = await server.api.post('/calendar/external/probe', {
      url: 'gopher://127.0.0.1/',
    });
    expect(scheme.status).to.equal(400);
    expect(scheme.body.issues).to.deep.equal([
      { path: ['url'], message: 'must use http, https or webcal, not gopher' },
    ]);
  });
});

describe('PATCH /calendar/external/:sourceId', () => {
  let server: TestServer;
  let feeds: IcsServer;
  let sourceId: string;
  before(async () => {
    server = await startTestServer({ timezone: 'Europe/Berlin' });
    feeds = await startIcsServer();
    feeds.set('/school.ics', { body: SCHOOL });
    sourceId = (
      await server.api.post('/calendar/external', { name: 'School', url: feeds.url('/school.ics') })
    ).body.sourceId;
  });
  after(async () => {
    await server.close();
    await feeds.close();
  });

  it('changes the hint and logs external_calendar.updated', async () => {
    const seq = await lastSeq(server.api);
    const r = await server.api.patch(`/calendar/external/${sourceId}`, { hint: '  trip, closed ' });
    expect(r.status).to.equal(200);
    expect(r.body.feed).to.include({ sourceId, hint: 'trip, closed' });
    const log = await changesAfter(server.api, seq);
    expect(log.map((c) => c.type)).to.deep.equal(['external_calendar.updated']);
    expect(log[0].object.hint).to.equal('trip, closed');
    expect(log[0].previous.hint).to.equal(null);
    // The same hint again writes nothing; null clears it.
    await server.api.patch(`/calendar/external/${sourceId}`, { hint: 'trip, closed' });
    expect(await lastSeq(server.api)).to.equal(seq + 1);
    expect(
      (await server.api.patch(`/calendar/external/${sourceId}`, { hint: null })).body.feed.hint,
    ).to.equal(null);
  });

  it('refuses every other field with 400 naming it', async () => {
    for (const body of [
      { name: 'New' },
      { url: feeds.url('/other.ics') },
      { color: 'plum' },
      { hint: 'x', name: 'y' },
      {},
    ]) {
      const r = await server.api.patch(`/calendar/external/${sourceId}`, body);
      expect(r.status, JSON.stringify(body)).to.equal(400);
      const key = Object.keys(body).find((k) => k !== 'hint') ?? 'hint';
      expect(
        r.body.issues.map((i: any) => i.path[0]),
        JSON.stringify(body),
      ).to.include(key);
    }
    expect((await server.api.get('/calendar/external')).body.feeds[0].name).to.equal('School');
  });

  it('takes a hint of 500 characters, not 501', async () => {
    expect(
      (await server.api.patch(`/calendar/external/${sourceId}`, { hint: 'h'.repeat(500) })).status,
    ).to.equal(200);
    const r = await server.api.patch(`/calendar/external/${sourceId}`, { hint: 'h'.repeat(501) });
    expect(r.status).to.equal(400);
    expect(r.body.issues[0].path).to.deep.equal(['hint']);
  });

  it('answers 404 for a feed the family does not have', async () => {
    const r = await server.api.patch('/calendar/external/src_00000000000000000000', { hint: 'x' });
    expect(r.status).to.equal(404);
  });
});

describe('DELETE /calendar/external/:sourceId', () => {
  let server: TestServer;
  let feeds: IcsServer;
  before(async () => {
    server = await startTestServer({ timezone: 'Europe/Berlin' });
    feeds = await startIcsServer();
    feeds.set('/school.ics', { body: SCHOOL });
  });
  after(async () => {
    await server.close();
    await feeds.close();
  });

  it('removes the feed, its calendar and its events; plans drop their links', async () => {
    const linked = (
      await server.api.post('/calendar/external', { name: 'School', url: feeds.url('/school.ics') })
    ).body;
    const trip = (await allEvents(server, '2026-11-24', '2026-11-24')).find(
      (e) => e.title === 'Class trip to the zoo',
    );
    const own = (
      await server.api.post('/calendar/events', { title: 'Dentist', date: '2026-11-25' })
    ).body.entryId;
    const plan = (await server.api.post('/plans', { title: 'November' })).body.planId;
    expect((await server.api.post(`/plans/${plan}/events`, { eventId: trip.id })).status).to.equal(
      201,
    );
    expect((await server.api.post(`/plans/${plan}/events`, { eventId: own })).status).to.equal(201);
    // The calendar itself cannot be removed through the collections endpoint.
    expect((await server.api.delete('/trackers/school')).status).to.equal(409);

    const seq = await lastSeq(server.api);
    const r = await server.api.delete(`/calendar/external/${linked.sourceId}`);
    expect(r.status).to.equal(200);
    expect(r.body).to.include({ ok: true, sourceId: linked.sourceId, deletedEvents: 3 });
    expect((await server.api.get('/calendar/external')).body.feeds).to.deep.equal([]);
    expect((await server.api.get('/trackers')).body.trackers.map((t: any) => t.key)).not.to.include(
      'school',
    );
    expect((await allEvents(server, '2026-11-01', '2026-12-31')).map((e) => e.title)).to.deep.equal(
      ['Dentist'],
    );
    const detail = (await server.api.get(`/plans/${plan}`)).body;
    expect(detail.events.map((e: any) => e.eventId)).to.deep.equal([own]);
    const log = await changesAfter(server.api, seq);
    expect(log.map((c) => c.type)).to.include.members([
      'collection.deleted',
      'external_calendar.deleted',
      'plan.event.unlinked',
    ]);
    expect(log.find((c) => c.type === 'external_calendar.deleted').object).to.include({
      sourceId: linked.sourceId,
      deletedEvents: 3,
    });
    // Its refresh is off the agenda.
    expect(
      server.daemon.store.getJob(
        server.daemon.store.getFamilyBySlug('home')!.id,
        `feed:${linked.sourceId}`,
      ),
    ).to.equal(undefined);
    expect((await server.api.delete(`/calendar/external/${linked.sourceId}`)).status).to.equal(404);
  });
});

describe('events of external feeds', () => {
  let server: TestServer;
  let feeds: IcsServer;
  let trip: any;
  let choir: any;
  before(async () => {
    server = await startTestServer({ timezone: 'Europe/Berlin' });
    feeds = await startIcsServer();
    feeds.set('/school.ics', { body: SCHOOL });
    await server.api.post('/calendar/external', { name: 'School', url: feeds.url('/school.ics') });
    const events = await allEvents(server, '2026-11-23', '2026-11-24');
    trip = events.find((e) => e.title === 'Class trip to the zoo');
    choir = events.find((e) => e.title === 'Choir');
  });
  after(async () => {
    await server.close();
    await feeds.close();
  });

  it('answer 409 naming the feed-owned fields a change would touch', async () => {
    for (const body of [
      { title: 'Mine' },
      { date: '2026-11-25' },
      { time: '09:00' },
      { where: 'Home' },
      { repeatFrequency: 'daily' },
      { calendarKey: 'calendar' },
      { data: { x: 1 } },
    ]) {
      const r = await server.api.patch(`/calendar/events/${trip.id}`, body);
      expect(r.status, JSON.stringify(body)).to.equal(409);
      expect(r.body.issues.map((i: any) => i.path[0])).to.deep.equal(Object.keys(body));
    }
    const occ = await server.api.patch(`/calendar/events/${choir.id}`, {
      editScope: 'occurrence',
      occurrenceDate: '2026-11-23',
      endTime: '18:00',
    });
    expect(occ.status).to.equal(409);
  });

  it("take the family's own fields on top: note, people, attendance, reminders, travel plan, status", async () => {
    const ana = (await server.api.post('/people', { name: 'Ana' })).body.person.id;
    const r = await server.api.patch(`/calendar/events/${trip.id}`, {
      note: 'Ana drives',
      ownerPersonId: ana,
      responsiblePersonIds: [ana],
      responsibilityRequired: true,
      attendance: { [ana]: 'going' },
      reminders: [{ offsetMinutes: 60 }],
      travelPlan: { origin: 'Home', baseTravelMinutes: 20 },
      status: 'done',
    });
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    expect(r.body.event).to.include({ status: 'done', sourceId: trip.sourceId });
    expect(r.body.event.data).to.deep.include({
      note: 'Ana drives',
      where: 'Tierpark',
      time: '08:30',
      travelPlan: {
        origin: 'Home',
        baseTravelMinutes: 20,
        arriveEarlyMinutes: 0,
        leaveAt: '2026-11-24T08:10',
      },
    });
    const occ = await server.api.patch(`/calendar/events/${choir.id}`, {
      editScope: 'occurrence',
      occurrenceDate: '2026-11-30',
      note: 'Concert rehearsal',
      status: 'archived',
    });
    expect(occ.status, JSON.stringify(occ.body)).to.equal(200);
    expect(occ.body.event).to.include({ occurrenceDate: '2026-11-30', status: 'archived' });
    expect(occ.body.event.data).to.include({ note: 'Concert rehearsal', time: '16:00' });
  });

  it('cannot be deleted, as a series or as one occurrence (remove the feed instead)', async () => {
    expect((await server.api.delete(`/calendar/events/${trip.id}`)).status).to.equal(409);
    expect(
      (
        await server.api.delete(
          `/calendar/events/${choir.id}?editScope=occurrence&occurrenceDate=2026-11-23`,
        )
      ).status,
    ).to.equal(409);
    expect((await allEvents(server, '2026-11-23', '2026-11-24')).map((e) => e.title)).to.deep.equal(
      ['Choir', 'Class trip to the zoo'],
    );
  });

  it('can be linked to plans', async () => {
    const plan = (await server.api.post('/plans', { title: 'Zoo' })).body.planId;
    const r = await server.api.post(`/plans/${plan}/events`, { eventId: trip.id });
    expect(r.status).to.equal(201);
    const detail = (await server.api.get(`/plans/${plan}`)).body;
    expect(detail.events[0]).to.deep.include({ eventId: trip.id, title: 'Class trip to the zoo' });
    expect(detail.events[0].timing).to.deep.include({
      date: '2026-11-24',
      kind: 'timed',
      time: '08:30',
      endTime: '15:00',
    });
  });
});
