import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { FakeClock } from '../helpers/clock.js';

describe('Idempotency-Key', () => {
  let server: TestServer;
  const clock = new FakeClock();
  before(async () => {
    server = await startTestServer({ now: clock.now });
  });
  after(() => server?.close());

  it('replays the first answer for the same request and does the work once', async () => {
    const headers = { 'idempotency-key': 'create-ana-1' };
    const first = await server.api.post('/people', { name: 'Ana' }, { headers });
    const again = await server.api.post('/people', { name: 'Ana' }, { headers });
    expect(first.status).to.equal(201);
    expect(again.status).to.equal(201);
    expect(again.body).to.deep.equal(first.body);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(first.headers.get('idempotent-replayed')).to.equal(null);
    const people = (await server.api.get('/people')).body.people.filter(
      (p: any) => p.name === 'Ana',
    );
    expect(people).to.have.length(1);
  });

  it('answers 422 when the key comes back with a different body', async () => {
    const headers = { 'idempotency-key': 'create-bo-1' };
    await server.api.post('/people', { name: 'Bo' }, { headers });
    const other = await server.api.post('/people', { name: 'Bob' }, { headers });
    expect(other.status).to.equal(422);
    expect(other.body.code).to.equal('idempotency_mismatch');
  });

  it('keys are scoped to the API key that sent them', async () => {
    const headers = { 'idempotency-key': 'shared-key' };
    const key2 = await server.key({ scopes: ['write'] });
    const a = await server.api.post('/people', { name: 'Cy' }, { headers });
    const b = await server.api.post('/people', { name: 'Cy' }, { headers, key: key2 });
    expect(b.headers.get('idempotent-replayed')).to.equal(null);
    expect(b.body.person.id).to.not.equal(a.body.person.id);
  });

  it('answers 409 to a repeat while the first is still running, and creates one record', async () => {
    const headers = { 'idempotency-key': 'burst-1' };
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => server.api.post('/people', { name: 'Dee' }, { headers })),
    );
    const fresh = replies.filter((r) => r.status === 201 && !r.headers.get('idempotent-replayed'));
    const inFlight = replies.filter((r) => r.status === 409);
    const replayed = replies.filter((r) => r.headers.get('idempotent-replayed') === 'true');
    expect(fresh).to.have.length(1);
    expect(inFlight.length + replayed.length).to.equal(19);
    for (const r of inFlight) expect(r.body.error).to.match(/still being processed/);
    expect(
      (await server.api.get('/people')).body.people.filter((p: any) => p.name === 'Dee'),
    ).to.have.length(1);
  });

  it('keeps no answer for a request refused by validation or by the family rules: a retry is decided again', async () => {
    const headers = { 'idempotency-key': 'refused-1' };
    const bad = await server.api.post('/people', { nmae: 'typo' }, { headers });
    expect(bad.status).to.equal(400);
    // Nothing was kept, so the key is free: the same body is decided again (no replay header),
    // and a corrected body is not a mismatch.
    const again = await server.api.post('/people', { nmae: 'typo' }, { headers });
    expect(again.status).to.equal(400);
    expect(again.headers.get('idempotent-replayed')).to.equal(null);
    const fixed = await server.api.post('/people', { name: 'Fay' }, { headers });
    expect(fixed.status).to.equal(201);
    const missing = await server.api.patch(
      '/people/person_00000000000000000000',
      { name: 'X' },
      { headers: { 'idempotency-key': 'refused-2' } },
    );
    expect(missing.status).to.equal(404);
    const created = await server.api.post(
      '/people',
      { name: 'Gus' },
      { headers: { 'idempotency-key': 'refused-2' } },
    );
    expect(created.status).to.equal(201);
  });

  it('replays a kept answer with its own status (200 for re-linking, 201 for creating)', async () => {
    const plan = (await server.api.post('/plans', { title: 'Trip' })).body.planId;
    const ev = (await server.api.post('/calendar/events', { title: 'Go', date: '2026-12-05' })).body
      .entryId;
    await server.api.post(`/plans/${plan}/events`, { eventId: ev });
    const headers = { 'idempotency-key': 'relink-1' };
    // Re-linking changes nothing: nothing is kept, the retry is decided again with the same answer.
    const first = await server.api.post(`/plans/${plan}/events`, { eventId: ev }, { headers });
    const again = await server.api.post(`/plans/${plan}/events`, { eventId: ev }, { headers });
    expect([first.status, again.status]).to.deep.equal([200, 200]);
    expect(again.body).to.deep.equal(first.body);
  });

  it('keeps an answer over 64 KiB as its status only, and a replay says the change was made once', async () => {
    const items = Array.from({ length: 50 }, (_, i) => ({
      title: `Item ${i}`,
      data: { notes: 'n'.repeat(2_000) },
    }));
    const headers = { 'idempotency-key': 'big-batch-1' };
    const first = await server.api.post(
      '/trackers/groceries/entries/batch',
      { items },
      { headers },
    );
    expect(first.status).to.equal(201);
    expect(first.text.length).to.be.greaterThan(64 * 1024);
    const again = await server.api.post(
      '/trackers/groceries/entries/batch',
      { items },
      { headers },
    );
    expect(again.status).to.equal(201);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.body).to.include({ ok: true, idempotentReplay: true });
    expect(again.body.message).to.match(/made once/);
    const all = (await server.api.get('/trackers/groceries/entries?limit=50&query=Item')).body
      .entries;
    expect(all).to.have.length(50);
  });

  it('forgets answers after 24 hours', async () => {
    const headers = { 'idempotency-key': 'old-1' };
    const first = await server.api.post('/people', { name: 'Eve' }, { headers });
    clock.advance(24 * 3600_000 + 1000);
    const later = await server.api.post('/people', { name: 'Eve' }, { headers });
    expect(later.headers.get('idempotent-replayed')).to.equal(null);
    expect(later.body.person.id).to.not.equal(first.body.person.id);
  });
});

describe('rate limit', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ overrides: { rateLimit: { perMinute: 5 } } });
  });
  after(() => server?.close());

  it('answers 429 with Retry-After past the limit, per key', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await server.api.get('/people')).status);
    expect(statuses).to.deep.equal([200, 200, 200, 200, 200, 429]);
    const limited = await server.api.get('/people');
    expect(limited.body.code).to.equal('rate_limited');
    const retry = Number(limited.headers.get('retry-after'));
    expect(retry).to.be.within(1, 60);
    const other = await server.key({ scopes: ['read'] });
    expect((await server.api.get('/people', { key: other })).status).to.equal(200);
  });
});
