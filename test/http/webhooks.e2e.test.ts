/**
 * Webhook destinations through the real server, with a real receiver on 127.0.0.1: the five
 * endpoints, their validation and limits, what each event group delivers (payload and
 * Standard Webhooks signature verified by the `standardwebhooks` library from the raw body),
 * who gets what (subscribed types only, not while disabled, nothing from before creation),
 * and that secrets never leave through listings or the change log.
 */
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { FakeClock } from '../helpers/clock.js';
import { changesAfter } from '../helpers/changes.js';
import { conforms } from '../helpers/contract.js';
import { startReceiver, verifyDelivery, type Receiver } from '../helpers/fakes/receiver.js';
import { EVENT_TYPES } from '../../src/domain/shared/events.js';

const path = '/webhook-destinations';
const template = '/api/v1/families/{familySlug}/webhook-destinations';

describe('webhook destinations', () => {
  let server: TestServer;
  let receiver: Receiver;
  const clock = new FakeClock('2026-11-22T08:30:00.000Z');
  const settle = () => server.daemon.webhooks.idle();

  before(async () => {
    server = await startTestServer({ now: clock.now });
  });
  after(() => server?.close());
  beforeEach(async () => {
    receiver = await startReceiver();
    // Each test starts without destinations.
    for (const d of (await server.api.get(path)).body.destinations)
      await server.api.delete(`${path}/${d.id}`);
  });
  afterEach(() => receiver.close());

  async function create(
    body: Record<string, unknown>,
  ): Promise<{ id: string; secret: string; body: any }> {
    const r = await server.api.post(path, { name: 'Home Assistant', url: receiver.url, ...body });
    expect(r.status, r.text).to.equal(201);
    return { id: r.body.destination.id, secret: r.body.signingSecret, body: r.body };
  }

  describe('POST /webhook-destinations', () => {
    it('creates a destination and shows its signing secret once', async () => {
      const { body, secret } = await create({ eventTypes: ['person.created'] });
      expect(secret).to.match(/^whsec_[A-Za-z0-9+/]{32}$/);
      expect(Buffer.from(secret.slice(6), 'base64')).to.have.length(24);
      expect(body.destination).to.include({
        name: 'Home Assistant',
        url: receiver.url,
        enabled: true,
        disabledReason: null,
      });
      expect(body.destination.eventTypes).to.deep.equal(['person.created']);
      expect(body.destination.id).to.match(/^whd_/);
      await conforms(
        server,
        {
          status: 201,
          headers: new Headers({ 'content-type': 'application/json' }),
          body,
          text: '',
        },
        'post',
        template,
      );
      const list = await server.api.get(path);
      expect(list.text).to.not.include(secret);
      expect(list.text).to.not.include(secret.slice(6));
    });

    it('refuses bad names, URLs and event types, naming the field', async () => {
      const cases: [Record<string, unknown>, (string | number)[]][] = [
        [{ name: '', url: receiver.url, eventTypes: ['person.created'] }, ['name']],
        [{ name: '   ', url: receiver.url, eventTypes: ['person.created'] }, ['name']],
        [{ name: 'x'.repeat(201), url: receiver.url, eventTypes: ['person.created'] }, ['name']],
        [{ name: 'a', url: 'ftp://example.com/x', eventTypes: ['person.created'] }, ['url']],
        [{ name: 'a', url: 'not a url', eventTypes: ['person.created'] }, ['url']],
        [
          {
            name: 'a',
            url: `http://h.example/${'x'.repeat(2049 - 'http://h.example/'.length)}`,
            eventTypes: ['person.created'],
          },
          ['url'],
        ],
        [
          { name: 'a', url: receiver.url, eventTypes: ['person.created', 'person.exploded'] },
          ['eventTypes', 1],
        ],
        [{ name: 'a', url: receiver.url, eventTypes: [] }, ['eventTypes']],
        [{ name: 'a', url: receiver.url }, ['eventTypes']],
        [
          { name: 'a', url: receiver.url, eventTypes: ['person.created'], secret: 'mine' },
          ['secret'],
        ],
      ];
      for (const [body, at] of cases) {
        const r = await server.api.post(path, body);
        expect(r.status, JSON.stringify(body).slice(0, 100)).to.equal(400);
        expect(r.body).to.include({ ok: false, code: 'invalid_request' });
        expect(
          r.body.issues.map((i: any) => i.path),
          JSON.stringify(r.body),
        ).to.deep.include(at);
      }
      // The edges that are allowed: 200 characters, a 2,048-character URL, every type.
      const long = `http://h.example/${'x'.repeat(2048 - 'http://h.example/'.length)}`;
      const ok = await server.api.post(path, {
        name: 'n'.repeat(200),
        url: long,
        eventTypes: [...EVENT_TYPES],
      });
      expect(ok.status, ok.text).to.equal(201);
      expect(ok.body.destination.url).to.have.length(2048);
      expect(ok.body.destination.eventTypes).to.have.length(EVENT_TYPES.length);
      expect((await server.api.get(path)).body.destinations).to.have.length(1);
    });

    it('keeps at most 25 destinations per family', async () => {
      for (let i = 0; i < 25; i++) await create({ name: `d${i}`, eventTypes: ['person.created'] });
      const r = await server.api.post(path, {
        name: 'one too many',
        url: receiver.url,
        eventTypes: ['person.created'],
      });
      expect(r.status).to.equal(409);
      expect(r.body.error).to.include('at most 25');
    });

    it('needs the admin scope', async () => {
      const write = await server.key({ scopes: ['write'] });
      const r = await server.api.post(
        path,
        { name: 'a', url: receiver.url, eventTypes: ['person.created'] },
        { key: write },
      );
      expect(r.status).to.equal(403);
      expect((await server.api.get(path, { key: write })).status).to.equal(403);
    });
  });

  describe('GET /webhook-destinations', () => {
    it('lists destinations with history, usage and every event type, never a secret', async () => {
      const { id, secret } = await create({ eventTypes: ['person.created'] });
      await server.api.post('/people', { name: 'Ana' });
      await settle();
      const r = await server.api.get(path);
      expect(r.status).to.equal(200);
      await conforms(server, r, 'get', template);
      expect(r.body.events).to.deep.equal([...EVENT_TYPES]);
      const d = r.body.destinations.find((x: any) => x.id === id);
      expect(d.history).to.have.length(1);
      expect(d.history[0]).to.include({
        type: 'person.created',
        attempt: 1,
        status: 'succeeded',
        responseStatus: 200,
        error: null,
      });
      expect(d.usage).to.deep.equal({
        last24h: { attempted: 1, succeeded: 1, failed: 0 },
        last30d: { attempted: 1, succeeded: 1, failed: 0 },
      });
      expect(r.text).to.not.include(secret.slice(6));
      expect(JSON.stringify(d)).to.not.match(/secret"/i);
    });
  });

  describe('deliveries of each event group', () => {
    it('delivers collections, entries, calendar, shares, plans, people and destination events with the documented payload, verifiable from the raw body', async () => {
      const { secret, id: destId } = await create({ eventTypes: [...EVENT_TYPES] });
      const from = (await server.api.get('/changes?after=0&limit=1')).body;
      void from;
      const before = await changesAfter(server.api, 0);
      const start = before.at(-1).seq;
      const col = await server.api.post('/trackers', { name: 'Garden' });
      const entry = await server.api.post('/trackers/garden/entries', { title: 'Water the roses' });
      await server.api.patch(`/trackers/garden/entries/${entry.body.entry.id}`, {
        title: 'Water the roses twice',
      });
      const ev = await server.api.post('/calendar/events', {
        title: 'Dentist',
        date: '2026-12-01',
        time: '09:00',
      });
      const share = await server.api.post('/calendar/shares', { name: 'Grandma' });
      const plan = await server.api.post('/plans', { title: 'Summer trip' });
      const person = await server.api.post('/people', { name: 'Bea' });
      const other = await server.api.post(path, {
        name: 'Other',
        url: receiver.url,
        eventTypes: ['person.created'],
      });
      for (const r of [col, entry, ev, share, plan, person, other])
        expect(r.status, r.text).to.be.oneOf([200, 201]);
      await settle();
      const logged = await changesAfter(server.api, start);
      const deliveries = await receiver.waitFor(logged.length);
      expect(deliveries).to.have.length(logged.length);
      const byId = new Map(deliveries.map((d) => [d.id, d]));
      for (const rec of logged) {
        const d = byId.get(rec.id);
        expect(d, `a delivery of ${rec.type}`).to.exist;
        const payload = verifyDelivery(secret, d!, clock.now());
        expect(payload).to.deep.equal({
          id: rec.id,
          type: rec.type,
          createdAt: rec.at,
          family: { slug: 'home' },
          data: {
            object: rec.object,
            ...(rec.previous !== undefined ? { previous: rec.previous } : {}),
          },
        });
        expect(d!.timestamp).to.equal(Math.floor(clock.now().getTime() / 1000));
        expect(d!.headers['content-type']).to.equal('application/json');
      }
      const types = new Set(logged.map((r: any) => r.type));
      for (const t of [
        'collection.created',
        'tracker.entry.created',
        'tracker.entry.updated',
        'calendar.event.created',
        'calendar_share.created',
        'plan.created',
        'person.created',
        'webhook_destination.created',
      ])
        expect(types.has(t), t).to.equal(true);
      // Updates carry the version before; the share's token and the destination's secret are nowhere.
      const upd = deliveries.find((d) => d.json.type === 'tracker.entry.updated')!;
      expect(upd.json.data.previous.title).to.equal('Water the roses');
      expect(upd.json.data.object.title).to.equal('Water the roses twice');
      const all = deliveries.map((d) => d.raw).join('\n');
      expect(all).to.not.include(share.body.token);
      expect(all).to.not.include(other.body.signingSecret.slice(6));
      const created = deliveries.find((d) => d.json.type === 'webhook_destination.created')!;
      expect(created.json.data.object).to.include({ id: other.body.destination.id, name: 'Other' });
      expect(Object.keys(created.json.data.object)).to.not.include('secret');
      void destId;
    });

    it('sends only subscribed types, nothing from before creation, and nothing while disabled', async () => {
      await server.api.post('/people', { name: 'Before' });
      const { id } = await create({ eventTypes: ['person.created'] });
      await server.api.post('/people', { name: 'Cy' });
      await server.api.post('/trackers/chores/entries', { title: 'Not subscribed' });
      await settle();
      expect(receiver.deliveries.map((d) => d.json.data.object.name)).to.deep.equal(['Cy']);
      await server.api.patch(`${path}/${id}`, { enabled: false });
      await server.api.post('/people', { name: 'While off' });
      await settle();
      await server.api.patch(`${path}/${id}`, { enabled: true });
      await server.api.post('/people', { name: 'After' });
      await settle();
      expect(receiver.deliveries.map((d) => d.json.data.object.name)).to.deep.equal([
        'Cy',
        'After',
      ]);
      // Narrowing the types stops them at once.
      await server.api.patch(`${path}/${id}`, { eventTypes: ['person.deleted'] });
      await server.api.post('/people', { name: 'Unwanted' });
      await settle();
      expect(receiver.deliveries).to.have.length(2);
    });

    it('gives each destination its own copy, signed with its own secret', async () => {
      const a = await create({ name: 'A', eventTypes: ['person.created'] });
      const b = await create({ name: 'B', eventTypes: ['person.created'] });
      await server.api.post('/people', { name: 'Dee' });
      await settle();
      const [d1, d2] = await receiver.waitFor(2);
      expect(d1.id).to.equal(d2.id);
      const verified = [d1, d2].map((d) => {
        try {
          verifyDelivery(a.secret, d, clock.now());
          return 'A';
        } catch {
          verifyDelivery(b.secret, d, clock.now());
          return 'B';
        }
      });
      expect(verified.sort()).to.deep.equal(['A', 'B']);
    });
  });

  describe('PATCH /webhook-destinations/:id', () => {
    it('changes fields, logs webhook_destination.updated with the previous version, and answers a new secret only on rotation', async () => {
      const { id, secret } = await create({ eventTypes: ['person.created'] });
      const seq = (await changesAfter(server.api, 0)).at(-1).seq;
      const r = await server.api.patch(`${path}/${id}`, {
        name: 'Renamed',
        eventTypes: ['person.created', 'person.deleted'],
      });
      expect(r.status, r.text).to.equal(200);
      await conforms(server, r, 'patch', `${template}/{destinationId}`);
      expect(r.body.destination).to.include({ id, name: 'Renamed' });
      expect(r.body).to.not.have.property('signingSecret');
      const rot = await server.api.patch(`${path}/${id}`, { rotateSecret: true });
      expect(rot.body.signingSecret)
        .to.match(/^whsec_/)
        .and.not.equal(secret);
      expect(rot.body.destination.secretRotatedAt).to.equal(clock.now().toISOString());
      const log = await changesAfter(server.api, seq);
      expect(log.map((c: any) => c.type)).to.deep.equal([
        'webhook_destination.updated',
        'webhook_destination.updated',
      ]);
      expect(log[0].previous.name).to.equal('Home Assistant');
      expect(log[0].object.name).to.equal('Renamed');
      const text = JSON.stringify(log);
      expect(text).to.not.include(secret.slice(6));
      expect(text).to.not.include(rot.body.signingSecret.slice(6));
      // Nothing to change: 200, nothing logged.
      const same = await server.api.patch(`${path}/${id}`, {
        name: 'Renamed',
        rotateSecret: false,
      });
      expect(same.status).to.equal(200);
      expect(await changesAfter(server.api, seq)).to.have.length(2);
    });

    it('answers 404 for an unknown destination and 400 for an empty body or an unknown type', async () => {
      expect((await server.api.patch(`${path}/whd_nope`, { name: 'x' })).status).to.equal(404);
      const { id } = await create({ eventTypes: ['person.created'] });
      const empty = await server.api.patch(`${path}/${id}`, {});
      expect(empty.status).to.equal(400);
      const bad = await server.api.patch(`${path}/${id}`, {
        eventTypes: ['person.created', 'nope'],
      });
      expect(bad.status).to.equal(400);
      expect(bad.body.issues[0].path).to.deep.equal(['eventTypes', 1]);
    });
  });

  describe('DELETE /webhook-destinations/:id', () => {
    it('deletes it, logs webhook_destination.deleted and sends it nothing more', async () => {
      const { id } = await create({ eventTypes: ['person.created'] });
      const r = await server.api.delete(`${path}/${id}`);
      expect(r.status).to.equal(200);
      expect(r.body.destination.id).to.equal(id);
      await conforms(server, r, 'delete', `${template}/{destinationId}`);
      const last = (await changesAfter(server.api, 0)).at(-1);
      expect(last).to.deep.include({ type: 'webhook_destination.deleted' });
      expect(last.object.id).to.equal(id);
      await server.api.post('/people', { name: 'Nobody hears' });
      await settle();
      expect(receiver.deliveries).to.have.length(0);
      expect((await server.api.delete(`${path}/${id}`)).status).to.equal(404);
    });
  });

  describe('GET /api/v1/openapi.json', () => {
    it('documents the delivery itself in an OpenAPI 3.1 webhooks section: headers, envelope, one entry per event type', async () => {
      const doc = (await server.http.get('/api/v1/openapi.json')).body;
      expect(doc.openapi).to.equal('3.1.0');
      expect(Object.keys(doc.webhooks).sort()).to.deep.equal(
        [...EVENT_TYPES, 'webhook.test'].sort(),
      );
      const op = doc.webhooks['person.created'].post;
      const deref = (ref: string) =>
        ref
          .split('/')
          .slice(1)
          .reduce((o: any, k) => o[k], doc);
      expect(
        op.parameters.map((p: any) => deref(p.$ref)).map((p: any) => [p.name, p.in, p.required]),
      ).to.deep.equal([
        ['webhook-id', 'header', true],
        ['webhook-timestamp', 'header', true],
        ['webhook-signature', 'header', true],
      ]);
      const [envelope, own] = op.requestBody.content['application/json'].schema.allOf;
      expect(deref(envelope.$ref).required).to.deep.equal([
        'id',
        'type',
        'createdAt',
        'family',
        'data',
      ]);
      expect(own.properties.type).to.deep.equal({ const: 'person.created' });
      for (const p of [
        '/webhook-destinations',
        '/webhook-destinations/{destinationId}',
        '/webhook-destinations/{destinationId}/test',
      ]) {
        const ops = doc.paths[`/api/v1/families/{familySlug}${p}`];
        expect(ops, p).to.exist;
        for (const o of Object.values<any>(ops)) expect(o['x-scope']).to.equal('admin');
      }
    });
  });

  describe('POST /webhook-destinations/:id/test', () => {
    it('sends a signed webhook.test now and answers how it went, recording it in history', async () => {
      const { id, secret } = await create({ eventTypes: ['person.created'] });
      receiver.answer = () => ({ status: 204 });
      const r = await server.api.post(`${path}/${id}/test`);
      expect(r.status, r.text).to.equal(200);
      await conforms(server, r, 'post', `${template}/{destinationId}/test`);
      expect(r.body.delivery).to.include({ status: 'succeeded', responseStatus: 204, error: null });
      expect(r.body.delivery.durationMs).to.be.a('number');
      expect(receiver.deliveries).to.have.length(1);
      const payload = verifyDelivery(secret, receiver.deliveries[0], clock.now());
      expect(payload).to.deep.include({
        id: r.body.delivery.eventId,
        type: 'webhook.test',
        createdAt: clock.now().toISOString(),
        family: { slug: 'home' },
      });
      expect(payload.data.object.id).to.equal(id);
      receiver.answer = () => ({ status: 500 });
      const failed = await server.api.post(`${path}/${id}/test`);
      expect(failed.body.delivery).to.include({
        status: 'failed',
        responseStatus: 500,
        error: 'HTTP 500',
      });
      const d = (await server.api.get(path)).body.destinations[0];
      expect(d.history.map((h: any) => [h.type, h.status])).to.deep.equal([
        ['webhook.test', 'failed'],
        ['webhook.test', 'succeeded'],
      ]);
      expect(d.usage.last24h).to.deep.equal({ attempted: 2, succeeded: 1, failed: 1 });
      // A test neither retries nor disables.
      expect(d.enabled).to.equal(true);
      expect((await server.api.post(`${path}/whd_unknown/test`)).status).to.equal(404);
    });
  });
});
