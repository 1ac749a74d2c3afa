/**
 * An interactive display's actions on the wire, `POST /display/:displayToken/actions`: each
 * kind on both sides of its rules, decided by the REST commands (seen through REST, the change
 * log with the display as the actor, and a webhook delivery), 403 for a read-only display and
 * for what a display does not show, 404/409 when the family changed meanwhile, the
 * Idempotency-Key replay, and the per-display rate limit. The page in a browser is
 * displayTouch.e2e.test.ts.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { FakeClock } from '../helpers/clock.js';
import { changesAfter, lastSeq } from '../helpers/changes.js';
import { startReceiver, type Receiver } from '../helpers/fakes/receiver.js';

const PER_MINUTE = 25;

describe('POST /display/:displayToken/actions', function () {
  this.timeout(20_000);
  // 10:00 in Berlin on a Wednesday.
  const clock = new FakeClock('2026-06-10T08:00:00.000Z');
  let server: TestServer;
  let receiver: Receiver;
  let ana: string;
  let ben: string;

  before(async () => {
    server = await startTestServer({
      now: clock.now,
      timezone: 'Europe/Berlin',
      overrides: { display: { actionsPerMinute: PER_MINUTE } },
    });
    receiver = await startReceiver();
    ana = (await server.api.post('/people', { name: 'Ana Lima', familiarName: 'Mum' })).body.person
      .id;
    ben = (await server.api.post('/people', { name: 'Ben Lima' })).body.person.id;
  });
  after(async () => {
    await server.close();
    await receiver.close();
  });

  const display = async (body: Record<string, unknown> = {}) => {
    const r = await server.api.post('/displays', { name: 'Kitchen', interactive: true, ...body });
    expect(r.status, r.text).to.equal(201);
    return r.body as { display: { id: string }; token: string };
  };
  const act = (token: string, body: unknown, key: string | null = randomUUID()) =>
    server.http.post(`/display/${token}/actions`, body, {
      headers: key === null ? {} : { 'idempotency-key': key },
    });
  // A chore is on the display when it is due within its days (today here): only then may it act.
  const chore = async (title: string, collection = 'chores') =>
    (
      await server.api.post(`/trackers/${collection}/entries`, {
        title,
        data: collection === 'chores' ? { due: '2026-06-10' } : {},
      })
    ).body.entry.id as string;
  const entry = async (collection: string, id: string) =>
    (await server.api.get(`/trackers/${collection}/entries?limit=50`)).body.entries.find(
      (e: { id: string }) => e.id === id,
    ) as { title: string; status: string } | undefined;
  const statusOf = async (collection: string, id: string) => (await entry(collection, id))?.status;

  it('ticks a chore off and back as the display (change log, webhook), and refuses what it does not show', async () => {
    const d = await display();
    const hook = await server.api.post('/webhook-destinations', {
      name: 'Home Assistant',
      url: receiver.url,
      eventTypes: ['tracker.entry.updated'],
    });
    expect(hook.status, hook.text).to.equal(201);
    const bins = await chore('Bins out');
    const before = await lastSeq(server.api);

    const done = await act(d.token, { action: 'done', collection: 'chores', entryId: bins });
    expect(done.status, done.text).to.equal(200);
    expect(done.body.ok).to.equal(true);
    expect(done.body.change).to.deep.include({
      type: 'tracker.entry.updated',
      actor: { keyId: null, personId: null, displayId: d.display.id },
    });
    expect(done.body.change.object).to.include({ id: bins, status: 'done' });
    // Only what the display renders: no previous state, no data.
    expect(done.body.change).to.not.have.property('previous');
    expect(done.body.change.object).to.not.have.property('data');
    expect(await statusOf('chores', bins)).to.equal('done');
    const logged = await changesAfter(server.api, before);
    expect(logged).to.have.length(1);
    const { id, seq, at, type, actor, object } = logged[0];
    const o = object as Record<string, unknown>;
    expect(done.body.change).to.deep.equal({
      id,
      seq,
      at,
      type,
      actor,
      object: { id: o.id, collectionKey: o.collectionKey, title: o.title, status: o.status },
    });
    const [delivery] = await receiver.waitFor(1, 5_000);
    expect(delivery.json.type).to.equal('tracker.entry.updated');
    expect(delivery.json.data.object).to.deep.include({ id: bins, status: 'done' });

    // Already done: nothing to change, nothing logged.
    const again = await act(d.token, { action: 'done', collection: 'chores', entryId: bins });
    expect(again.status).to.equal(200);
    expect(again.body).to.deep.equal({ ok: true, change: null });

    const undone = await act(d.token, { action: 'undone', collection: 'chores', entryId: bins });
    expect(undone.status).to.equal(200);
    expect(undone.body.change.object.status).to.equal('active');
    expect(await statusOf('chores', bins)).to.equal('active');

    const meal = await chore('Pasta', 'meals');
    const refused = [
      await act(d.token, { action: 'done', collection: 'meals', entryId: meal }),
      await act(d.token, { action: 'done', collection: 'calendar', entryId: meal }),
    ];
    for (const r of refused) {
      expect(r.status, r.text).to.equal(403);
      expect(r.body.code).to.equal('forbidden');
    }
    expect(await statusOf('meals', meal)).to.equal('active');
    // An id it does not show is 403, whatever it is: unknown, or a chore with no due date.
    const missing = await act(d.token, { action: 'done', collection: 'chores', entryId: 'ent_x' });
    expect(missing.status).to.equal(403);
    const undated = (
      await server.api.post('/trackers/chores/entries', { title: 'Someday', data: {} })
    ).body.entry.id as string;
    const hidden = await act(d.token, { action: 'done', collection: 'chores', entryId: undated });
    expect(hidden.status).to.equal(403);
    expect(await statusOf('chores', undated)).to.equal('active');
    const bad = await act(d.token, { action: 'done', collection: 'chores' });
    expect(bad.status).to.equal(400);
    expect(bad.body.issues).to.deep.equal([{ path: ['entryId'], message: 'is required' }]);
    const kind = await act(d.token, { action: 'explode' });
    expect(kind.status).to.equal(400);
    expect(kind.body.issues[0].path).to.deep.equal(['action']);
  });

  it('adds to a list it shows, removes only what it added and nobody changed since, and refuses other lists', async () => {
    const d = await display({ lists: ['groceries'] });
    const milk = await act(d.token, { action: 'add', collection: 'groceries', title: ' Milk ' });
    expect(milk.status, milk.text).to.equal(200);
    expect(milk.body.change).to.deep.include({ type: 'tracker.entry.created' });
    expect(milk.body.change.actor.displayId).to.equal(d.display.id);
    const milkId = milk.body.change.object.id as string;
    expect((await entry('groceries', milkId))?.title).to.equal('Milk');

    for (const collection of ['meals', 'chores', 'calendar']) {
      const r = await act(d.token, { action: 'add', collection, title: 'Cake' });
      expect(r.status, `${collection}: ${r.text}`).to.equal(403);
    }
    const blank = await act(d.token, { action: 'add', collection: 'groceries', title: '  ' });
    expect(blank.status).to.equal(400);
    expect(blank.body.issues[0].path).to.deep.equal(['title']);

    // The undo of the add.
    const removed = await act(d.token, {
      action: 'remove',
      collection: 'groceries',
      entryId: milkId,
    });
    expect(removed.status, removed.text).to.equal(200);
    expect(removed.body.change.type).to.equal('tracker.entry.deleted');
    expect(await entry('groceries', milkId)).to.equal(undefined);

    // What someone else added stays.
    const theirs = await chore('Butter', 'groceries');
    const notMine = await act(d.token, {
      action: 'remove',
      collection: 'groceries',
      entryId: theirs,
    });
    expect(notMine.status).to.equal(403);
    expect(await entry('groceries', theirs)).to.not.equal(undefined);

    // Changed since it was added: it stays (409); deleted meanwhile: 404.
    const eggs = (await act(d.token, { action: 'add', collection: 'groceries', title: 'Eggs' }))
      .body.change.object.id;
    clock.advance(1_000);
    await server.api.patch(`/trackers/groceries/entries/${eggs}`, { title: 'Eggs (12)' });
    const changed = await act(d.token, {
      action: 'remove',
      collection: 'groceries',
      entryId: eggs,
    });
    expect(changed.status).to.equal(409);
    expect(changed.body.code).to.equal('conflict');
    expect((await entry('groceries', eggs))?.title).to.equal('Eggs (12)');
    const jam = (await act(d.token, { action: 'add', collection: 'groceries', title: 'Jam' })).body
      .change.object.id;
    await server.api.delete(`/trackers/groceries/entries/${jam}`);
    const gone = await act(d.token, { action: 'remove', collection: 'groceries', entryId: jam });
    expect(gone.status).to.equal(404);
    expect(gone.body.issues[0].path).to.deep.equal(['entryId']);
  });

  it('answers going, not going and no answer for its people, for one occurrence of a series too', async () => {
    const d = await display();
    const swim = (
      await server.api.post('/calendar/events', {
        title: 'Swimming',
        date: '2026-06-10',
        time: '17:00',
      })
    ).body.event.id;
    const going = await act(d.token, {
      action: 'attend',
      eventId: swim,
      personId: ana,
      going: true,
    });
    expect(going.status, going.text).to.equal(200);
    expect(going.body.change.type).to.equal('calendar.event.updated');
    expect(going.body.change.actor).to.deep.equal({
      keyId: null,
      personId: ana,
      displayId: d.display.id,
    });
    const attendance = async () =>
      (await server.api.get(`/calendar/events?from=2026-06-10&to=2026-06-10`)).body.events.find(
        (e: { id: string }) => e.id === swim,
      ).data.attendance;
    expect(await attendance()).to.deep.equal({ [ana]: 'going' });
    await act(d.token, { action: 'attend', eventId: swim, personId: ana, going: false });
    expect(await attendance()).to.deep.equal({ [ana]: 'out' });
    await act(d.token, { action: 'attend', eventId: swim, personId: ana, going: null });
    expect(await attendance()).to.equal(undefined);

    // One occurrence of a weekly series: the series keeps its own answers.
    const piano = (
      await server.api.post('/calendar/events', {
        title: 'Piano',
        date: '2026-06-03',
        time: '18:00',
        repeatFrequency: 'weekly',
      })
    ).body.event.id;
    const one = await act(d.token, {
      action: 'attend',
      eventId: piano,
      occurrence: '2026-06-10',
      personId: ben,
      going: true,
    });
    expect(one.status, one.text).to.equal(200);
    const listed = (await server.api.get('/calendar/events?from=2026-06-10&to=2026-06-17')).body
      .events as { id: string; occurrenceDate: string; data: { attendance?: object } }[];
    const byDate = Object.fromEntries(
      listed.filter((e) => e.id === piano).map((e) => [e.occurrenceDate, e.data.attendance]),
    );
    expect(byDate).to.deep.equal({ '2026-06-10': { [ben]: 'going' }, '2026-06-17': undefined });
    const notOne = await act(d.token, {
      action: 'attend',
      eventId: piano,
      occurrence: '2026-06-11',
      personId: ben,
      going: true,
    });
    // Not an occurrence it shows: 403.
    expect(notOne.status).to.equal(403);

    const nobody = await act(d.token, {
      action: 'attend',
      eventId: swim,
      personId: 'person_x',
      going: true,
    });
    expect(nobody.status).to.equal(400);
    expect(nobody.body.issues[0].path).to.deep.equal(['personId']);
    const noEvent = await act(d.token, {
      action: 'attend',
      eventId: 'ent_x',
      personId: ana,
      going: true,
    });
    expect(noEvent.status).to.equal(403);
    const anas = await display({ personIds: [ana] });
    const notHers = await act(anas.token, {
      action: 'attend',
      eventId: swim,
      personId: ben,
      going: true,
    });
    expect(notHers.status).to.equal(403);
    const school = (await server.api.post('/trackers', { name: 'School', category: 'calendar' }))
      .body.tracker.key as string;
    const family = await display({ calendars: ['calendar'] });
    const trip = (
      await server.api.post('/calendar/events', {
        title: 'Trip',
        date: '2026-06-11',
        calendarKey: school,
      })
    ).body.event.id;
    const otherCalendar = await act(family.token, {
      action: 'attend',
      eventId: trip,
      personId: ana,
      going: true,
    });
    expect(otherCalendar.status, otherCalendar.text).to.equal(403);
  });

  it('votes for its people in an open poll, moves and withdraws the vote, and answers 403 once it is settled (off the display)', async () => {
    const d = await display();
    const planId = (await server.api.post('/plans', { title: 'Summer trip' })).body.planId;
    const poll = (
      await server.api.post(`/plans/${planId}/polls`, {
        question: 'Which weekend?',
        options: [{ date: '2026-07-04' }, { date: '2026-07-11' }],
      })
    ).body.poll as { pollId: string; options: { optionId: string }[] };
    const [first, second] = poll.options.map((o) => o.optionId);
    const vote = (optionIds: string[], personId = ana) =>
      act(d.token, { action: 'vote', planId, pollId: poll.pollId, optionIds, personId });
    const votes = async () => {
      const p = (await server.api.get(`/plans/${planId}`)).body.polls[0];
      return p.options.map((o: { votes: number }) => o.votes);
    };

    const cast = await vote([first]);
    expect(cast.status, cast.text).to.equal(200);
    expect(cast.body.change).to.deep.include({ type: 'plan.poll.vote.cast' });
    expect(cast.body.change.actor).to.deep.equal({
      keyId: null,
      personId: ana,
      displayId: d.display.id,
    });
    expect(cast.body.change.object.myVoteOptionId).to.equal(first);
    expect(await votes()).to.deep.equal([1, 0]);
    await vote([second]);
    await vote([second], ben);
    expect(await votes()).to.deep.equal([0, 2]);
    const withdrawn = await vote([]);
    expect(withdrawn.body.change.object.myVoteOptionId).to.equal(null);
    expect(await votes()).to.deep.equal([0, 1]);

    const two = await vote([first, second]);
    expect(two.status).to.equal(400);
    expect(two.body.issues[0].path).to.deep.equal(['optionIds']);
    const unknown = await vote(['option_x']);
    // Not an option it shows: 403.
    expect(unknown.status).to.equal(403);
    const bens = await display({ personIds: [ben] });
    const notHers = await act(bens.token, {
      action: 'vote',
      planId,
      pollId: poll.pollId,
      optionIds: [first],
      personId: ana,
    });
    expect(notHers.status).to.equal(403);

    const settled = await server.api.post(`/plans/${planId}/polls/${poll.pollId}/settle`, {
      optionId: second,
    });
    expect(settled.status, settled.text).to.equal(200);
    // A settled poll leaves the display: voting in it is 403 like anything it does not show.
    const late = await vote([first]);
    expect(late.status).to.equal(403);
    expect(late.body.code).to.equal('forbidden');
    expect(await votes()).to.deep.equal([0, 1]);
  });

  it('refuses every action of a display that is not interactive (403) and of a deleted link (404), writing nothing', async () => {
    const ro = await display({ interactive: false });
    const bins = await chore('Sweep');
    const before = await lastSeq(server.api);
    const actions = [
      { action: 'done', collection: 'chores', entryId: bins },
      { action: 'undone', collection: 'chores', entryId: bins },
      { action: 'add', collection: 'groceries', title: 'Cake' },
      { action: 'remove', collection: 'groceries', entryId: bins },
      { action: 'attend', eventId: 'ent_x', personId: ana, going: true },
      { action: 'vote', planId: 'plan_x', pollId: 'poll_x', optionIds: [], personId: ana },
    ];
    for (const a of actions) {
      const r = await act(ro.token, a);
      expect(r.status, `${a.action}: ${r.text}`).to.equal(403);
      expect(r.body.error).to.match(/read-only/);
    }
    expect(await lastSeq(server.api)).to.equal(before);

    // Turned on by an admin: the same link acts.
    const on = await server.api.patch(`/displays/${ro.display.id}`, { interactive: true });
    expect(on.status, on.text).to.equal(200);
    expect((await act(ro.token, actions[0])).status).to.equal(200);
    await server.api.delete(`/displays/${ro.display.id}`);
    const gone = await act(ro.token, actions[1]);
    expect(gone.status).to.equal(404);
    expect((await act('dsp_nope', actions[1])).status).to.equal(404);
  });

  it('replays the first answer for a repeated Idempotency-Key and applies the action once; refuses a missing or reused key', async () => {
    const d = await display();
    const key = randomUUID();
    const body = { action: 'add', collection: 'groceries', title: 'Bread' };
    const first = await act(d.token, body, key);
    expect(first.status).to.equal(200);
    expect(first.headers.get('idempotent-replayed')).to.equal(null);
    const second = await act(d.token, body, key);
    expect(second.status).to.equal(200);
    expect(second.headers.get('idempotent-replayed')).to.equal('true');
    expect(second.body).to.deep.equal(first.body);
    const breads = (await server.api.get('/trackers/groceries/entries?query=bread')).body.entries;
    expect(breads).to.have.length(1);

    const other = await act(d.token, { ...body, title: 'Rolls' }, key);
    expect(other.status).to.equal(422);
    expect(other.body.code).to.equal('idempotency_mismatch');
    const none = await act(d.token, body, null);
    expect(none.status).to.equal(400);
    expect(none.body.issues[0].path).to.deep.equal(['header', 'Idempotency-Key']);
    // Keys are the display's own: another display's same key is its own action.
    const d2 = await display();
    const elsewhere = await act(d2.token, body, key);
    expect(elsewhere.headers.get('idempotent-replayed')).to.equal(null);
    expect(
      (await server.api.get('/trackers/groceries/entries?query=bread')).body.entries,
    ).to.have.length(2);
  });

  it(`limits each display to display.actionsPerMinute (${PER_MINUTE}) with 429 and Retry-After, apart from other displays`, async () => {
    clock.advance(61_000);
    const d = await display();
    const other = await display();
    const bins = await chore('Mop');
    const tap = (token: string) =>
      act(token, { action: 'done', collection: 'chores', entryId: bins });
    for (let i = 0; i < PER_MINUTE; i++) expect((await tap(d.token)).status).to.equal(200);
    const limited = await tap(d.token);
    expect(limited.status).to.equal(429);
    expect(limited.body.code).to.equal('rate_limited');
    expect(Number(limited.headers.get('retry-after'))).to.be.within(1, 60);
    expect((await tap(other.token)).status).to.equal(200);
    clock.advance(61_000);
    expect((await tap(d.token)).status).to.equal(200);
  });
});
