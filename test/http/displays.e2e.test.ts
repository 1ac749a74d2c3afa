/**
 * Family display links on the wire: admins create (token once), list and delete them; the
 * page's JSON form shows the coming days, chores and weather for whoever holds the link (and
 * nothing private); its stream sends new content after a write and across midnight, and
 * `gone` when the link is deleted. The page in a real browser is displayBrowser.e2e.test.ts.
 */
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { FakeClock } from '../helpers/clock.js';
import { openSse, type SseReader } from '../helpers/sse.js';
import { startWeather, type WeatherFake } from '../helpers/fakes/weather.js';

describe('/displays and /display/:displayToken', function () {
  this.timeout(20_000);
  // 10:00 in Berlin on a Wednesday.
  const clock = new FakeClock('2026-06-10T08:00:00.000Z');
  let server: TestServer;
  let weather: WeatherFake;
  const readers: SseReader[] = [];
  let ana: string;
  let ben: string;

  before(async () => {
    weather = await startWeather();
    server = await startTestServer({
      now: clock.now,
      timezone: 'Europe/Berlin',
      overrides: {
        stream: { heartbeatSeconds: 1 },
        weather: { geocodingUrl: weather.geocodingUrl, forecastUrl: weather.forecastUrl },
      },
    });
    ana = (
      await server.api.post('/people', {
        name: 'Ana Lima',
        familiarName: 'Mum',
        email: 'ana@example.com',
      })
    ).body.person.id;
    ben = (await server.api.post('/people', { name: 'Ben Lima', email: 'ben@example.com' })).body
      .person.id;
  });
  afterEach(() => {
    for (const r of readers.splice(0)) r.close();
  });
  after(async () => {
    await server.close();
    await weather.close();
  });

  const create = async (body: Record<string, unknown> = { name: 'Kitchen' }) => {
    const r = await server.api.post('/displays', body);
    expect(r.status, r.text).to.equal(201);
    return r.body as { display: { id: string }; token: string; url: string };
  };
  const pagePath = (token: string) => `/display/${token}`;
  const json = (token: string) =>
    server.http.get(pagePath(token), { headers: { accept: 'application/json' } });

  it('creates a link whose token is shown once and kept only as a hash, lists and deletes it, and logs both', async () => {
    const made = await create({ name: 'Hallway', calendars: ['calendar'], personIds: [ana] });
    expect(made.token).to.match(/^dsp_[0-9A-Za-z]{32}$/);
    expect(made.url).to.equal(`http://share.test/display/${made.token}`);
    const list = await server.api.get('/displays');
    expect(list.status).to.equal(200);
    const listed = list.body.displays.find((d: { id: string }) => d.id === made.display.id);
    expect(listed).to.deep.include({ name: 'Hallway', calendars: ['calendar'], personIds: [ana] });
    expect(list.text).to.not.include(made.token);
    expect(list.text).to.not.include('tokenHash');
    const log = (await server.api.get('/changes?limit=500')).body.changes as {
      type: string;
      object: Record<string, unknown>;
    }[];
    const created = log.find(
      (c) => c.type === 'display.created' && c.object.id === made.display.id,
    )!;
    expect(created.object).to.not.have.property('tokenHash');
    expect(JSON.stringify(log)).to.not.include(made.token);

    expect((await json(made.token)).status).to.equal(200);
    const del = await server.api.delete(`/displays/${made.display.id}`);
    expect(del.status).to.equal(200);
    expect(del.body.display.id).to.equal(made.display.id);
    const after = await json(made.token);
    expect(after.status).to.equal(404);
    expect(after.body.code).to.equal('not_found');
    expect((await server.http.get(pagePath(made.token))).status).to.equal(404);
    expect((await server.api.delete(`/displays/${made.display.id}`)).status).to.equal(404);
    const types = (
      (await server.api.get('/changes?limit=500')).body.changes as { type: string }[]
    ).map((c) => c.type);
    expect(types).to.include('display.deleted');
  });

  it('refuses unknown calendars and people naming the field, and keys without the admin scope', async () => {
    const bad = await server.api.post('/displays', {
      name: 'X',
      calendars: ['chores'],
      personIds: ['person_nobody'],
    });
    expect(bad.status).to.equal(400);
    expect(bad.body.issues.map((i: { path: unknown[] }) => i.path)).to.deep.equal([
      ['calendars', 0],
      ['personIds', 0],
    ]);
    const blank = await server.api.post('/displays', { name: '  ' });
    expect(blank.status).to.equal(400);
    expect(blank.body.issues[0].path).to.deep.equal(['name']);
    const writer = await server.key({ scopes: ['write'] });
    expect((await server.api.post('/displays', { name: 'X' }, { key: writer })).status).to.equal(
      403,
    );
    expect((await server.api.get('/displays', { key: writer })).status).to.equal(403);
    expect((await server.http.get('/display/dsp_nope')).status).to.equal(404);
  });

  it('shows the coming days with times, who is going and leave-by, chores due and done, and the weather; nothing private', async () => {
    expect((await server.api.patch('', { location: 'Berlin' })).status).to.equal(200);
    await server.api.post('/calendar/events', {
      title: 'Swimming',
      date: '2026-06-10',
      time: '17:00',
      endTime: '18:00',
      where: 'Pool',
      attendance: { [ana]: 'going' },
      travelPlan: { origin: 'Home', baseTravelMinutes: 20, arriveEarlyMinutes: 10 },
    });
    await server.api.post('/calendar/events', {
      title: 'Dentist',
      date: '2026-06-11',
      time: '09:30',
      attendance: { [ben]: 'going' },
    });
    await server.api.post('/trackers/chores/entries', {
      title: 'Bins out',
      data: { due: '2026-06-09', assignee: ana },
    });
    await server.api.post('/trackers/chores/entries', {
      title: 'Water plants',
      data: { due: '2026-06-11', assignee: ben },
    });
    const done = (
      await server.api.post('/trackers/chores/entries', {
        title: 'Feed cat',
        data: { due: '2026-06-10' },
      })
    ).body.entry.id;
    await server.api.patch(`/trackers/chores/entries/${done}`, { status: 'done' });

    const all = await create({ name: 'Kitchen' });
    const r = await json(all.token);
    expect(r.status).to.equal(200);
    const c = r.body;
    expect(c).to.include({
      ok: true,
      name: 'Kitchen',
      family: 'Home',
      timezone: 'Europe/Berlin',
      today: '2026-06-10',
      weatherPlace: 'Berlin',
    });
    expect(c.days.map((d: { label: string }) => d.label)).to.deep.equal([
      // The family's locale (`en` when it never chose one) writes them: docs/i18n.md.
      'Today · Wednesday, June 10, 2026',
      'Tomorrow · Thursday, June 11, 2026',
      'Friday, June 12, 2026',
    ]);
    expect(c.days[0].events).to.deep.equal([
      {
        title: 'Swimming',
        time: '17:00',
        endTime: '18:00',
        endDate: null,
        where: 'Pool',
        going: ['Mum'],
        leaveBy: '16:30',
        calendar: 'Family calendar',
      },
    ]);
    expect(
      c.days[1].events.map((e: { title: string; going: string[] }) => [e.title, e.going]),
    ).to.deep.equal([['Dentist', ['Ben Lima']]]);
    expect(c.days[0].weather).to.deep.equal({
      date: '2026-06-10',
      summary: 'light rain',
      minC: 2.6,
      maxC: 8.4,
      precipitationProbability: 70,
    });
    expect(c.chores.due).to.deep.equal([
      { title: 'Bins out', due: '2026-06-09', overdue: true, who: ['Mum'] },
      { title: 'Water plants', due: '2026-06-11', overdue: false, who: ['Ben Lima'] },
    ]);
    expect(c.chores.done.map((x: { title: string }) => x.title)).to.deep.equal(['Feed cat']);
    for (const secret of ['ana@example.com', 'ben@example.com', ana, ben, all.token])
      expect(r.text).to.not.include(secret);
    const html = await server.http.get(pagePath(all.token));
    expect(html.headers.get('content-type')).to.match(/^text\/html/);
    for (const secret of ['ana@example.com', ana]) expect(html.text).to.not.include(secret);
    const csp = html.headers.get('content-security-policy')!;
    expect(csp)
      .to.match(/default-src 'none'/)
      .and.match(/script-src 'self';/)
      .and.match(/connect-src 'self'/);
    expect(csp).to.not.include('unsafe-inline');
    expect(html.text).to.not.match(/(src|href)="https?:/);

    // Filtered by a person: only what concerns Ben.
    const bens = await create({ name: 'Ben', personIds: [ben] });
    const b = (await json(bens.token)).body;
    expect(
      b.days.flatMap((d: { events: { title: string }[] }) => d.events.map((e) => e.title)),
    ).to.deep.equal(['Dentist']);
    expect(b.chores.due.map((x: { title: string }) => x.title)).to.deep.equal(['Water plants']);
  });

  it('changes what a link shows and may do with PATCH (interactive, lists, night), logs it, and refuses bad settings naming the field', async () => {
    const made = await create({ name: 'Hall' });
    expect(made.display).to.deep.include({
      interactive: false,
      lists: ['groceries'],
      nightFrom: null,
      nightTo: null,
    });
    const path = `/displays/${made.display.id}`;
    const r = await server.api.patch(path, {
      interactive: true,
      lists: ['groceries', 'meals'],
      nightFrom: '9:30 PM',
      nightTo: '06:30',
    });
    expect(r.status, r.text).to.equal(200);
    expect(r.body.display).to.deep.include({
      id: made.display.id,
      name: 'Hall',
      interactive: true,
      lists: ['groceries', 'meals'],
      nightFrom: '21:30',
      nightTo: '06:30',
    });
    const c = (await json(made.token)).body;
    expect(c.interactive).to.equal(true);
    expect(c.night).to.deep.equal({ from: '21:30', to: '06:30' });
    expect(c.lists.map((l: { key: string; name: string }) => [l.key, l.name])).to.deep.equal([
      ['groceries', 'Groceries'],
      ['meals', 'Meals'],
    ]);
    const log = (await server.api.get('/changes?limit=500')).body.changes as {
      type: string;
      object: { id: string; interactive: boolean };
      previous?: { interactive: boolean };
    }[];
    const updated = log.filter((x) => x.type === 'display.updated');
    expect(
      updated.map((u) => [u.object.id, u.previous?.interactive, u.object.interactive]),
    ).to.deep.equal([[made.display.id, false, true]]);
    // The same again changes nothing and logs nothing.
    expect((await server.api.patch(path, { interactive: true })).status).to.equal(200);
    expect(
      (await server.api.get('/changes?limit=500')).body.changes.filter(
        (x: { type: string }) => x.type === 'display.updated',
      ),
    ).to.have.length(1);
    // Night mode off again.
    const off = await server.api.patch(path, { nightFrom: null, nightTo: null });
    expect(off.body.display).to.include({ nightFrom: null, nightTo: null });

    const bad = async (body: Record<string, unknown>) => {
      const res = await server.api.patch(path, body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      return res.body.issues.map((i: { path: unknown[] }) => i.path);
    };
    expect(await bad({ lists: ['chores', 'calendar', 'nope'] })).to.deep.equal([
      ['lists', 0],
      ['lists', 1],
      ['lists', 2],
    ]);
    expect(await bad({ nightFrom: '22:00' })).to.deep.equal([['nightTo']]);
    expect(await bad({ nightFrom: '22:00', nightTo: '22:00' })).to.deep.equal([['nightTo']]);
    expect(await bad({ nightFrom: '25:00', nightTo: '06:00' })).to.deep.equal([['nightFrom']]);
    expect(await bad({ interactive: 'yes' })).to.deep.equal([['interactive']]);
    expect(await bad({ name: ' ' })).to.deep.equal([['name']]);
    expect((await server.api.patch('/displays/display_nope', { name: 'X' })).status).to.equal(404);
    const writer = await server.key({ scopes: ['write'] });
    expect((await server.api.patch(path, { interactive: false }, { key: writer })).status).to.equal(
      403,
    );
  });

  it('gives an interactive display the ids its actions name, its people, lists and open polls, and an end time from a duration', async () => {
    await server.api.post('/calendar/events', {
      title: 'Football',
      date: '2026-06-10',
      time: '16:00',
      durationMinutes: 90,
      attendance: { [ana]: 'going', [ben]: 'out' },
    });
    const piano = (
      await server.api.post('/calendar/events', {
        title: 'Piano',
        date: '2026-06-03',
        time: '18:00',
        repeatFrequency: 'weekly',
      })
    ).body.event.id;
    const milk = (await server.api.post('/trackers/groceries/entries', { title: 'Milk' })).body
      .entry.id;
    const bread = (await server.api.post('/trackers/groceries/entries', { title: 'Bread' })).body
      .entry.id;
    await server.api.patch(`/trackers/groceries/entries/${bread}`, { status: 'done' });
    const planId = (await server.api.post('/plans', { title: 'Summer trip' })).body.planId;
    const poll = (
      await server.api.post(`/plans/${planId}/polls`, {
        question: 'Which weekend?',
        options: [{ date: '2026-07-04', label: 'First' }, { date: '2026-07-11' }],
      })
    ).body.poll;
    const voter = await server.key({ scopes: ['write'], personId: ana });
    await server.api.post(
      `/plans/${planId}/polls/${poll.pollId}/vote`,
      { optionId: poll.options[0].optionId },
      { key: voter },
    );

    const ro = (await json((await create({ name: 'Read-only' })).token)).body;
    const football = ro.days[0].events.find((e: { title: string }) => e.title === 'Football');
    expect(football).to.deep.include({ time: '16:00', endTime: '17:30', going: ['Mum'] });
    expect(football).to.not.have.property('id');
    expect(ro.interactive).to.equal(false);
    expect(ro.people).to.deep.equal([]);
    expect(ro.lists[0].items).to.deep.include.members([
      { title: 'Milk', done: false },
      { title: 'Bread', done: true },
    ]);
    expect(ro.polls[0]).to.deep.equal({
      plan: 'Summer trip',
      question: 'Which weekend?',
      options: [
        { label: 'First · Sat, Jul 4', voters: ['Mum'] },
        { label: 'Sat, Jul 11', voters: [] },
      ],
    });

    const live = (await json((await create({ name: 'Touch', interactive: true })).token)).body;
    expect(live.interactive).to.equal(true);
    expect(live.people).to.deep.equal([
      { id: ana, name: 'Mum' },
      { id: ben, name: 'Ben Lima' },
    ]);
    const f = live.days[0].events.find((e: { title: string }) => e.title === 'Football');
    expect(f).to.deep.include({
      occurrence: '2026-06-10',
      answers: { [ana]: 'going', [ben]: 'out' },
    });
    expect(f.id).to.match(/^ent_/);
    const p = live.days[0].events.find((e: { title: string }) => e.title === 'Piano');
    expect(p).to.deep.include({ id: piano, occurrence: '2026-06-10', endTime: null });
    expect(live.lists[0].items).to.deep.include.members([
      { id: milk, title: 'Milk', done: false },
      { id: bread, title: 'Bread', done: true },
    ]);
    expect(live.polls[0]).to.deep.include({ planId, pollId: poll.pollId });
    expect(live.polls[0].votes).to.deep.equal({ [ana]: poll.options[0].optionId });
    expect(live.polls[0].options[0].id).to.equal(poll.options[0].optionId);
  });

  it('streams the content, again after a write, across midnight, and says gone when the link is deleted', async () => {
    const made = await create({ name: 'Stream' });
    const r = await openSse(`${server.url}/display/${made.token}/events`);
    readers.push(r);
    expect(r.status).to.equal(200);
    await r.count(2);
    // The words and locale first (docs/display.md, "Its language"), then the content.
    expect(r.events.map((e) => e.event)).to.deep.equal(['text', 'display']);
    expect(JSON.parse(r.events[0].data)).to.include({ locale: 'en', dir: 'ltr', hour12: true });
    const first = JSON.parse(r.events[1].data);
    expect(first.name).to.equal('Stream');

    const t0 = Date.now();
    await server.api.post('/calendar/events', {
      title: 'Piano lesson',
      date: clock.now().toISOString().slice(0, 10),
      time: '18:30',
    });
    // Through the stream at once, not at a refresh minutes away (generous for a loaded machine).
    await r.count(3, 10_000);
    expect(Date.now() - t0).to.be.lessThan(10_000);
    const titles = JSON.parse(r.events[2].data).days[0].events.map(
      (e: { title: string }) => e.title,
    );
    expect(titles).to.include('Piano lesson');
    // Only display content: never a change record.
    expect(r.events.every((e) => !('seq' in JSON.parse(e.data)))).to.equal(true);
    expect(r.events.slice(1).every((e) => e.event === 'display')).to.equal(true);

    // Across midnight (Berlin): the next heartbeat finds a new day.
    const today = JSON.parse(r.events[r.events.length - 1].data).today;
    clock.set('2026-06-10T22:00:30.000Z');
    await r.until(
      () => JSON.parse(r.events[r.events.length - 1].data).today !== today,
      3_000,
      'a new day',
    );
    expect(JSON.parse(r.events[r.events.length - 1].data).days[0].label).to.equal(
      'Today · Thursday, June 11, 2026',
    );
    clock.set('2026-06-10T08:00:00.000Z');

    await server.api.delete(`/displays/${made.display.id}`);
    await r.until(() => r.ended, 3_000, 'the end of the stream');
    expect(r.events[r.events.length - 1].event).to.equal('gone');
    expect((await server.http.get(`/display/${made.token}/events`)).status).to.equal(404);
  });
});
