/**
 * The 401 and 403 rules (docs/api.md) on every family route the daemon publishes: the routes are
 * read from the served OpenAPI document, so a route added later is covered without editing
 * this file. Each refusal must come before any lookup or validation and must write nothing.
 */
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import * as changes from '../helpers/changes.js';

interface Op {
  method: string;
  template: string;
  scope: string;
  stream: boolean;
}

/**
 * The one change that needs only read: a ticket to open the change stream from a browser (it
 * changes nothing but an in-memory ticket table, and a read key must be able to stream).
 */
const READ_POSTS = new Set(['POST /api/v1/families/{familySlug}/changes/stream-tickets']);

describe('auth on every family route', () => {
  let server: TestServer;
  const ops: Op[] = [];
  let keys: {
    read: string;
    write: string;
    writer: string;
    admin: string;
    foreign: string;
    wrongSecret: string;
  };
  before(async () => {
    server = await startTestServer();
    const doc = (await server.http.get('/api/v1/openapi.json', { key: null })).body;
    for (const [template, item] of Object.entries<Record<string, any>>(doc.paths)) {
      if (!template.startsWith('/api/v1/families/{familySlug}')) continue;
      for (const [method, op] of Object.entries<any>(item)) {
        if (!['get', 'post', 'patch', 'put', 'delete'].includes(method)) continue;
        ops.push({
          method: method.toUpperCase(),
          template,
          scope: op['x-scope'],
          stream: !!op.responses?.['200']?.content?.['text/event-stream'],
        });
      }
    }
    const other = await server.family('elsewhere');
    keys = {
      read: await server.key({ scopes: ['read'] }),
      write: await server.key({ scopes: ['write'] }),
      // A key acting for a person, so that voting gets past its own 403 (docs/api.md).
      writer: await server.key({
        scopes: ['write'],
        personId: (await server.api.post('/people', { name: 'Voter' })).body.person.id,
      }),
      admin: server.apiKey,
      foreign: other.key,
      wrongSecret: `${server.apiKey.slice(0, 16)}${'A'.repeat(32)}`,
    };
  });
  after(() => server?.close());

  /** The path with its parameters filled with well-formed ids that name nothing. */
  const fill = (template: string, slug = server.slug) =>
    template
      .replace('{familySlug}', slug)
      .replace(
        /\{(\w+)\}/g,
        (_, name: string) => `${name.replace(/Id$|Key$/, '').toLowerCase()}_0000000000000000000a`,
      );

  /** Bodies that are refused by validation; `{}` is a valid routine (every field has a default). */
  const invalidBodies: Record<string, unknown> = {
    'POST /api/v1/families/{familySlug}/notification-routines': { cron: 'not a cron' },
  };
  const send = async (op: Op, key: string | null, slug?: string) => {
    if (!op.stream) {
      return server.http.request(op.method, fill(op.template, slug), {
        key,
        ...(op.method === 'GET' || op.method === 'DELETE'
          ? {}
          : { body: invalidBodies[`${op.method} ${op.template}`] ?? {} }),
      });
    }
    // An event stream that opens never ends: its status is all there is to see.
    const res = await fetch(server.url + fill(op.template, slug), {
      headers: key ? { 'x-api-key': key } : {},
    });
    if (res.status === 200) {
      await res.body?.cancel();
      return { status: 200, body: {} as any, text: '' };
    }
    const text = await res.text();
    return { status: res.status, body: JSON.parse(text), text };
  };

  it('publishes every family route with its scope', () => {
    expect(ops.length).to.be.greaterThan(40);
    for (const op of ops)
      expect(['read', 'write', 'admin'], `${op.method} ${op.template}`).to.include(op.scope);
    // Reads need read, except in the admin areas (shares, webhooks…); changes need more.
    expect(
      ops
        .filter((o) => o.method !== 'GET' && !READ_POSTS.has(`${o.method} ${o.template}`))
        .every((o) => o.scope !== 'read'),
    ).to.equal(true);
    expect(ops.filter((o) => o.method === 'GET' && o.scope === 'read').length).to.be.greaterThan(
      10,
    );
  });

  it('answers 401 without a key and with a wrong secret, on every route', async () => {
    const seq = await changes.lastSeq(server.api);
    for (const op of ops) {
      for (const key of [null, keys.wrongSecret]) {
        const r = await send(op, key);
        expect(r.status, `${op.method} ${op.template} key=${key ? 'wrong' : 'none'}`).to.equal(401);
        expect(r.body).to.include({ ok: false, code: 'unauthorized' });
      }
    }
    expect(await changes.lastSeq(server.api)).to.equal(seq);
  });

  it("answers 403 to another family's key on every route, the same for a family that does not exist", async () => {
    const seq = await changes.lastSeq(server.api);
    for (const op of ops) {
      const r = await send(op, keys.foreign);
      const ghost = await send(op, keys.admin, 'no-such-family');
      expect(r.status, `${op.method} ${op.template}`).to.equal(403);
      expect(r.body.code).to.equal('forbidden');
      expect(ghost.status, `${op.method} ${op.template} (no such family)`).to.equal(403);
      expect(ghost.body.error).to.equal(r.body.error);
    }
    expect(await changes.lastSeq(server.api)).to.equal(seq);
  });

  it('answers 403 to a key without the scope an operation needs, and lets the scope through', async () => {
    const seq = await changes.lastSeq(server.api);
    for (const op of ops) {
      const label = `${op.method} ${op.template} (${op.scope})`;
      const read = await send(op, keys.read);
      if (op.scope === 'read') expect([401, 403], label).to.not.include(read.status);
      else {
        expect(read.status, label).to.equal(403);
        expect(read.body.code, label).to.equal('forbidden');
        expect(read.body.error, label).to.match(new RegExp(`"${op.scope}" scope`));
      }
      if (op.scope === 'admin') {
        const write = await send(op, keys.write);
        expect(write.status, label).to.equal(403);
        expect(write.body.error, label).to.match(/"admin" scope/);
      }
    }
    // With the right scope the request gets past auth (to a 404 for the made-up ids, a 400 for
    // the empty body, or 501 where the area is not built yet) and still writes nothing here.
    for (const op of ops.filter(
      (o) => o.method !== 'GET' && !READ_POSTS.has(`${o.method} ${o.template}`),
    )) {
      const r = await send(op, op.scope === 'admin' ? keys.admin : keys.writer);
      expect([401, 403], `${op.method} ${op.template}`).to.not.include(r.status);
      expect(r.status, `${op.method} ${op.template}: ${r.text.slice(0, 200)}`).to.be.within(
        400,
        501,
      );
    }
    expect(await changes.lastSeq(server.api)).to.equal(seq);
  });
});
