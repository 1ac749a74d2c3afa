/**
 * A wall display acts only on what it shows, and its answers carry only what it renders: a
 * display of Ana alone cannot tick Bob's chore nor answer for an event it does not show (403,
 * whatever the id), and the answer for what it may do carries no private note, no previous
 * state and no one's attendance. Entries made together have ids that do not give their
 * neighbours away.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { FakeClock } from '../helpers/clock.js';

describe('a display acts on what it shows, and tells no more', function () {
  this.timeout(20_000);
  const clock = new FakeClock('2026-06-10T08:00:00.000Z');
  let server: TestServer;
  let ana: string;
  let bob: string;
  let token: string;

  before(async () => {
    server = await startTestServer({ now: clock.now });
    ana = (await server.api.post('/people', { name: 'Ana' })).body.person.id;
    bob = (await server.api.post('/people', { name: 'Bob' })).body.person.id;
    const d = await server.api.post('/displays', {
      name: 'Ana’s door',
      interactive: true,
      personIds: [ana],
    });
    expect(d.status, d.text).to.equal(201);
    token = d.body.token as string;
  });
  after(() => server.close());

  const act = (body: unknown) =>
    server.http.post(`/display/${token}/actions`, body, {
      headers: { 'idempotency-key': randomUUID() },
    });
  const chore = async (title: string, assignee: string, notes: string) =>
    (
      await server.api.post('/trackers/chores/entries', {
        title,
        data: { due: '2026-06-10', assignee, notes },
      })
    ).body.entry.id as string;
  const statusOf = async (id: string) =>
    (
      (await server.api.get('/trackers/chores/entries?limit=50')).body.entries as {
        id: string;
        status: string;
      }[]
    ).find((e) => e.id === id)?.status;

  it('refuses Bob’s chore (403) and ticks Ana’s, answering without her private note', async () => {
    const bobs = await chore('Bob: gym bag', bob, 'PRIVATE: Bob’s note');
    const anas = await chore('Ana: plants', ana, 'PRIVATE: Ana’s note');
    const refused = await act({ action: 'done', collection: 'chores', entryId: bobs });
    expect(refused.status, refused.text).to.equal(403);
    expect(refused.text).to.not.include('PRIVATE');
    expect(await statusOf(bobs)).to.equal('active');

    const done = await act({ action: 'done', collection: 'chores', entryId: anas });
    expect(done.status, done.text).to.equal(200);
    expect(done.body.change.object).to.deep.equal({
      id: anas,
      collectionKey: 'chores',
      title: 'Ana: plants',
      status: 'done',
    });
    expect(done.text).to.not.include('PRIVATE');
    expect(done.body.change).to.not.have.property('previous');
    // Undone works on what it shows as done today.
    const undone = await act({ action: 'undone', collection: 'chores', entryId: anas });
    expect(undone.status).to.equal(200);
    expect(await statusOf(anas)).to.equal('active');
  });

  it('answers only for events it shows, and never with their note or anyone’s attendance', async () => {
    const event = async (title: string, owner: string) =>
      (
        await server.api.post('/calendar/events', {
          title,
          date: '2026-06-10',
          time: '17:00',
          ownerPersonId: owner,
          note: 'PRIVATE: diagnosis',
          attendance: { [bob]: 'going' },
        })
      ).body.event.id as string;
    const bobsOnly = await event('Bob’s doctor', bob);
    const anas = await event('Ana’s swim', ana);
    const hidden = await act({ action: 'attend', eventId: bobsOnly, personId: ana, going: true });
    expect(hidden.status, hidden.text).to.equal(403);
    const going = await act({ action: 'attend', eventId: anas, personId: ana, going: true });
    expect(going.status, going.text).to.equal(200);
    expect(going.text).to.not.include('PRIVATE');
    expect(going.text).to.not.include('attendance');
    expect(going.text).to.not.include(bob);
    expect(Object.keys(going.body.change.object as object).sort()).to.deep.equal([
      'id',
      'status',
      'title',
    ]);
  });

  it('refuses ids it was never shown, whatever their shape', async () => {
    for (const entryId of ['ent_x', '../people', `ent_${'0'.repeat(20)}`]) {
      const r = await act({ action: 'done', collection: 'chores', entryId });
      expect(r.status, entryId).to.equal(403);
    }
  });

  it('gives entries made together ids that are not neighbours', async () => {
    const made = await server.api.post('/trackers/groceries/entries/batch', {
      items: Array.from({ length: 20 }, (_, i) => ({ title: `Item ${i}` })),
    });
    expect(made.status, made.text).to.equal(201);
    const ids = (made.body.entries as { id: string }[]).map((e) => e.id);
    const value = (id: string) =>
      [...id.slice(-10)].reduce(
        (v, c) => v * 32 + '0123456789abcdefghjkmnpqrstvwxyz'.indexOf(c),
        0,
      );
    const steps = ids.slice(1).map((id, i) => value(id) - value(ids[i]));
    // Still in creation order, but not one after the other.
    expect(steps.every((d) => d > 0)).to.equal(true);
    expect(steps.filter((d) => d === 1).length).to.be.below(2);
  });
});
