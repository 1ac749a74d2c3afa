/**
 * The answers described once with `J.*` (src/domain/shared/shape.ts) hold to what the daemon
 * sends: the family display's content (its page's JSON form and its stream's `display` event,
 * read-only and interactive) and its action answer, the shared plan page with its public poll, and the change records
 * of `GET …/changes` and the live stream. Each is validated against the very schema the OpenAPI
 * document publishes, closed (a key the daemon sends that the schema does not name fails), and
 * each is filled enough (names, ids, weather, night, votes) that every part of the shape is met.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { FakeClock } from '../helpers/clock.js';
import { openSse, type SseReader } from '../helpers/sse.js';
import { startWeather, type WeatherFake } from '../helpers/fakes/weather.js';
import { holdsTo } from '../helpers/shapeCheck.js';
import { sharePath } from '../helpers/plans.js';
import { DISPLAY_CONTENT_SCHEMA } from '../../src/http/routes/displays.content.schema.js';
import { PUBLIC_PLAN_SCHEMA } from '../../src/http/routes/plans.schema.js';
import { CHANGE_RECORD_SCHEMA } from '../../src/http/routes/system.js';
import { DISPLAY_ACTION_RESPONSE } from '../../src/http/routes/displays.actions.schema.js';

describe('answers described once hold to what the daemon sends', function () {
  this.timeout(20_000);
  // 10:00 in Berlin on a Wednesday.
  const clock = new FakeClock('2026-06-10T08:00:00.000Z');
  let server: TestServer;
  let weather: WeatherFake;
  const readers: SseReader[] = [];
  let ana: string;
  let planId: string;
  let chore: string;

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
    const api = server.api;
    expect((await api.patch('', { location: 'Berlin' })).status).to.equal(200);
    ana = (await api.post('/people', { name: 'Ana Lima', familiarName: 'Mum' })).body.person.id;
    await api.post('/calendar/events', {
      title: 'Swimming',
      date: '2026-06-10',
      time: '17:00',
      endTime: '18:00',
      where: 'Pool',
      attendance: { [ana]: 'going' },
      travelPlan: { origin: 'Home', baseTravelMinutes: 20, arriveEarlyMinutes: 10 },
    });
    await api.post('/calendar/events', {
      title: 'Camp',
      date: '2026-06-10',
      endDate: '2026-06-12',
    });
    chore = (
      await api.post('/trackers/chores/entries', {
        title: 'Bins out',
        data: { due: '2026-06-09', assignee: ana },
      })
    ).body.entry.id;
    await api.post('/trackers/groceries/entries', { title: 'Milk' });
    planId = (await api.post('/plans', { title: 'Summer trip' })).body.planId;
    await api.post(`/plans/${planId}/notes`, { body: 'Bring tents', showOnSharedPage: true });
    const poll = (
      await api.post(`/plans/${planId}/polls`, {
        question: 'Which weekend?',
        options: [{ date: '2026-07-04', label: 'First' }, { date: '2026-07-11' }],
      })
    ).body.poll;
    const voter = await server.key({ scopes: ['write'], personId: ana });
    const vote = await api.post(
      `/plans/${planId}/polls/${poll.pollId}/vote`,
      { optionId: poll.options[0].optionId },
      { key: voter },
    );
    expect(vote.status, vote.text).to.equal(200);
  });
  afterEach(() => {
    for (const r of readers.splice(0)) r.close();
  });
  after(async () => {
    await server?.close();
    await weather?.close();
  });

  const display = async (body: Record<string, unknown>) => {
    const r = await server.api.post('/displays', body);
    expect(r.status, r.text).to.equal(201);
    return r.body.token as string;
  };
  /** The page's JSON form, once the edge has the forecast. */
  const content = async (token: string) => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const r = await server.http.get(`/display/${token}`, {
        headers: { accept: 'application/json' },
      });
      expect(r.status, r.text).to.equal(200);
      if (r.body.days[0].weather !== null || Date.now() > deadline) return r.body;
    }
  };

  for (const interactive of [false, true])
    it(`the ${interactive ? 'interactive' : 'read-only'} display's content, page and stream`, async () => {
      const token = await display({
        name: interactive ? 'Touch' : 'Kitchen',
        interactive,
        nightFrom: '22:00',
        nightTo: '06:30',
      });
      const c = await content(token);
      holdsTo(DISPLAY_CONTENT_SCHEMA, c, 'the page');
      // Every part of the shape is met: names, the weather, night, a poll's voters.
      const swim = c.days[0].events.find((e: { title: string }) => e.title === 'Swimming');
      expect(swim).to.deep.include({ going: ['Mum'], leaveBy: '16:30', where: 'Pool' });
      expect(c.days[0].weather).to.not.equal(null);
      expect(c.night).to.deep.equal({ from: '22:00', to: '06:30' });
      expect(c.chores.due[0]).to.deep.include({ who: ['Mum'], overdue: true });
      expect(c.polls[0].options[0].voters).to.deep.equal(['Mum']);
      expect(c.lists[0].items[0]).to.include({ title: 'Milk' });
      if (interactive) {
        expect(c.people).to.deep.equal([{ id: ana, name: 'Mum' }]);
        expect(swim.answers).to.deep.equal({ [ana]: 'going' });
        expect(c.polls[0].votes).to.have.property(ana);
      } else expect(swim).to.not.have.property('id');

      const r = await openSse(`${server.url}/display/${token}/events`);
      readers.push(r);
      // The display's words and locale come first (docs/display.md, "Its language").
      await r.count(2);
      expect(r.events.map((e) => e.event)).to.deep.equal(['text', 'display']);
      holdsTo(DISPLAY_CONTENT_SCHEMA, JSON.parse(r.events[1].data), 'the stream');
    });

  it("an interactive display's action answer: the change as the display renders it", async () => {
    const token = await display({ name: 'Hall', interactive: true });
    const r = await server.http.post(
      `/display/${token}/actions`,
      { action: 'done', collection: 'chores', entryId: chore },
      { headers: { 'idempotency-key': randomUUID() } },
    );
    expect(r.status, r.text).to.equal(200);
    holdsTo(DISPLAY_ACTION_RESPONSE, r.body, 'the action answer');
    expect(r.body.change.object).to.deep.equal({
      id: chore,
      collectionKey: 'chores',
      title: 'Bins out',
      status: 'done',
    });
    expect(r.body.change.actor).to.have.property('displayId');
  });

  it('the shared plan page with its public poll', async () => {
    const share = await server.api.post(`/plans/${planId}/share`, { enabled: true });
    expect(share.status, share.text).to.equal(200);
    const r = await server.http.get(sharePath(share.body.shareUrl), {
      headers: { accept: 'application/json' },
    });
    expect(r.status).to.equal(200);
    holdsTo(PUBLIC_PLAN_SCHEMA, r.body, 'the plan page');
    expect(r.body.polls[0].options[0]).to.include({ votes: 1 });
    expect(r.body.notes).to.deep.equal([{ body: 'Bring tents', author: 'test admin' }]);
  });

  it('the change records, as GET …/changes and the live stream send them', async () => {
    const page = await server.api.get('/changes?limit=500');
    expect(page.status).to.equal(200);
    const changes = page.body.changes as { type: string; actor: object }[];
    // Records by a key, by a person's key and of display links are among them.
    expect(changes.map((c) => c.type)).to.include.members(['person.created', 'display.created']);
    for (const c of changes) holdsTo(CHANGE_RECORD_SCHEMA, c, c.type);
    const r = await openSse(`${server.url}/api/v1/families/home/changes/stream?after=0`, {
      'x-api-key': server.apiKey,
    });
    readers.push(r);
    await r.count(changes.length);
    for (const e of r.events) {
      const record = JSON.parse(e.data);
      expect(e.event).to.equal(record.type);
      holdsTo(CHANGE_RECORD_SCHEMA, record, `the stream's ${e.event}`);
    }
  });
});
