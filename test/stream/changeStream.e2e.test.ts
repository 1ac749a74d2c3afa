/**
 * GET …/changes/stream and POST …/changes/stream-tickets on the wire: records as server-sent
 * events in order and once durable, resuming by Last-Event-ID (over ?after=), heartbeats, the
 * per-key limit, tickets, dropping a reader that stops reading (its `dropped` event and the
 * records before it hold to their published shapes), CORS, and a clean stop.
 */
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openSse, type SseReader } from '../helpers/sse.js';
import { FakeClock } from '../helpers/clock.js';
import { holdsTo } from '../helpers/shapeCheck.js';
import { STREAM_DROPPED, type StreamDropped } from '../../src/stream/hub.js';
import { CHANGE_RECORD_SCHEMA } from '../../src/http/routes/system.js';

const STREAM = '/api/v1/families/home/changes/stream';

describe('GET /changes/stream', function () {
  this.timeout(20_000);
  let server: TestServer;
  const clock = new FakeClock(new Date());
  const open: SseReader[] = [];
  const sse = async (
    query = '',
    headers: Record<string, string> = {},
    key: string | null = server.apiKey,
  ) => {
    const r = await openSse(`${server.url}${STREAM}${query}`, {
      ...(key ? { 'x-api-key': key } : {}),
      ...headers,
    });
    open.push(r);
    return r;
  };
  const chore = (title: string) => server.api.post('/trackers/chores/entries', { title });

  before(async () => {
    server = await startTestServer({
      now: clock.now,
      overrides: {
        stream: { heartbeatSeconds: 1, perKey: 3, maxBacklog: 20 },
        server: { corsOrigins: ['http://tablet.local:3000'] },
      },
    });
  });
  afterEach(() => {
    for (const r of open.splice(0)) r.close();
  });
  after(() => server?.close());

  it('sends each durable record as id, event and data, in order, as GET /changes has them', async () => {
    const r = await sse();
    expect(r.status).to.equal(200);
    expect(r.res.headers['content-type']).to.match(/^text\/event-stream/);
    const made = [await chore('Bins out'), await chore('Water plants')];
    expect(made.map((m) => m.status)).to.deep.equal([201, 201]);
    await r.count(2);
    const log = (await server.api.get('/changes?after=0&limit=500')).body.changes as {
      seq: number;
    }[];
    const last = log.slice(-2);
    expect(r.events.map((e) => e.id)).to.deep.equal(last.map((c) => String(c.seq)));
    expect(r.events.map((e) => e.event)).to.deep.equal([
      'tracker.entry.created',
      'tracker.entry.created',
    ]);
    expect(r.events.map((e) => JSON.parse(e.data))).to.deep.equal(last);
    expect(JSON.parse(r.events[1].data).object.title).to.equal('Water plants');
  });

  it('resumes right after Last-Event-ID, backlog first, and the header wins over ?after=', async () => {
    await chore('One');
    const log = (await server.api.get('/changes?after=0&limit=500')).body.changes as {
      seq: number;
    }[];
    const from = log[log.length - 1].seq;
    await chore('Two');
    await chore('Three');
    const r = await sse('?after=0', { 'last-event-id': String(from) });
    await r.count(2);
    await chore('Four');
    await r.count(3);
    expect(r.events.map((e) => Number(e.id))).to.deep.equal([from + 1, from + 2, from + 3]);
    expect(r.events.map((e) => JSON.parse(e.data).object.title)).to.deep.equal([
      'Two',
      'Three',
      'Four',
    ]);
    const q = await sse(`?after=${from + 2}`);
    await q.count(1);
    expect(JSON.parse(q.events[0].data).object.title).to.equal('Four');
  });

  it('refuses a Last-Event-ID that is not a seq, and one past the end, naming it', async () => {
    const bad = await server.api.get('/changes/stream', { headers: { 'last-event-id': 'abc' } });
    expect(bad.status).to.equal(400);
    expect(bad.body.issues[0].path).to.deep.equal(['headers', 'Last-Event-ID']);
    const ahead = await server.api.get('/changes/stream?after=999999');
    expect(ahead.status).to.equal(400);
    expect(ahead.body.issues[0].path).to.deep.equal(['query', 'after']);
    expect(ahead.body.error).to.match(/past the end/);
  });

  it('sends a comment heartbeat every stream.heartbeatSeconds', async () => {
    const r = await sse();
    await r.until(() => r.comments.includes('keep-alive'), 2_500, 'a heartbeat');
  });

  it('allows stream.perKey open streams per key and answers 429 past it', async () => {
    const readers = [await sse(), await sse(), await sse()];
    expect(readers.map((r) => r.status)).to.deep.equal([200, 200, 200]);
    const over = await server.api.get('/changes/stream');
    expect(over.status).to.equal(429);
    expect(over.body.code).to.equal('rate_limited');
    expect(over.body.error).to.match(/stream\.perKey/);
    // Another key is counted apart, and closing one frees its place.
    const other = await sse('', {}, await server.key({ scopes: ['read'] }));
    expect(other.status).to.equal(200);
    readers[0].close();
    await new Promise((r) => setTimeout(r, 100));
    const again = await sse();
    expect(again.status).to.equal(200);
  });

  it('needs the read scope and a key of the family', async () => {
    const none = await server.http.get(STREAM);
    expect(none.status).to.equal(401);
    const foreign = await server.family('elsewhere');
    const wrong = await server.http.get(STREAM, { key: foreign.key });
    expect(wrong.status).to.equal(403);
  });

  it('opens with a one-minute, one-connection ticket instead of the key', async () => {
    const t = await server.api.post('/changes/stream-tickets');
    expect(t.status).to.equal(201);
    expect(t.body.ticket).to.match(/^stk_[0-9A-Za-z]{32}$/);
    expect(Date.parse(t.body.expiresAt) - clock.now().getTime()).to.equal(60_000);
    const r = await sse(`?ticket=${t.body.ticket}`, {}, null);
    expect(r.status).to.equal(200);
    await chore('Via ticket');
    await r.count(1);
    expect(JSON.parse(r.events[0].data).object.title).to.equal('Via ticket');
    const reused = await server.http.get(`${STREAM}?ticket=${t.body.ticket}`);
    expect(reused.status).to.equal(401);
    expect(reused.body.error).to.match(/ticket/);
    const late = await server.api.post('/changes/stream-tickets');
    clock.advance(61_000);
    const expired = await server.http.get(`${STREAM}?ticket=${late.body.ticket}`);
    expect(expired.status).to.equal(401);
  });

  it('carries the CORS headers of a configured origin', async () => {
    const r = await sse('', { origin: 'http://tablet.local:3000' });
    expect(r.res.headers['access-control-allow-origin']).to.equal('http://tablet.local:3000');
  });

  it('ends a stream whose key is revoked at the next heartbeat', async () => {
    const key = await server.key({ scopes: ['read'] });
    const r = await sse('', {}, key);
    expect(r.status).to.equal(200);
    const keyId = key.split('_')[1];
    const { revokeKey } = await import('../../src/family/admin.js');
    await revokeKey(server.daemon.store, keyId, clock.now());
    await r.until(() => r.ended, 3_000, 'the end of the stream');
  });

  it('sends event: dropped and closes a reader that stops reading while the family moves on', async () => {
    const r = await sse('?after=0');
    r.res.pause();
    // Fill the socket: big entries, then more records than stream.maxBacklog while it is full.
    const big = 'x'.repeat(19_000);
    const before = server.daemon.streams.openCount;
    // Batches of big records until the stuck reader is dropped (the socket's buffers fill after
    // a few megabytes; then the family moves more than stream.maxBacklog past it).
    for (let i = 0; i < 30 && server.daemon.streams.openCount === before; i++) {
      const items = Array.from({ length: 50 }, (_, j) => ({
        title: `Big ${i}-${j}`,
        data: { notes: big },
      }));
      expect((await server.api.post('/trackers/chores/entries/batch', { items })).status).to.equal(
        201,
      );
    }
    expect(server.daemon.streams.openCount).to.equal(before - 1);
    r.res.resume();
    await r.until(() => r.ended, 10_000, 'the end of the stream');
    const last = r.events[r.events.length - 1];
    expect(last.event).to.equal('dropped');
    const info = JSON.parse(last.data) as StreamDropped;
    // Its data is the shape the stream describes, and every record before it a change record.
    holdsTo(STREAM_DROPPED.schema, info, 'event: dropped');
    for (const e of r.events.slice(0, 3))
      holdsTo(CHANGE_RECORD_SCHEMA, JSON.parse(e.data), e.event);
    expect(info.head - info.after).to.be.greaterThan(20);
    // Everything before it arrived whole and in order.
    const seqs = r.events.slice(0, -1).map((e) => Number(e.id));
    expect(seqs).to.deep.equal(seqs.map((_, i) => seqs[0] + i));
    expect(seqs[seqs.length - 1]).to.equal(info.after);
  });
});

describe('GET /changes/stream when the daemon stops', function () {
  this.timeout(15_000);
  it('ends open streams so the stop does not wait for them', async () => {
    const server = await startTestServer();
    const r = await openSse(`${server.url}${STREAM}`, { 'x-api-key': server.apiKey });
    expect(r.status).to.equal(200);
    const t0 = Date.now();
    await server.close();
    // Not held until the 8 s fallback that ends connections nothing else ends.
    expect(Date.now() - t0).to.be.lessThan(5_000);
    await r.until(() => r.ended, 5_000, 'the end of the stream');
  });
});
