/**
 * The one error table, door by door. First every kind of error through every door of a real
 * daemon's composition: the door core's own app (its error boundary) with each door's form,
 * a handler throwing the error each kind stands for (a StoreWriteError for a full disk, an
 * OwnedElsewhere for an owner nobody can reach, a DomainError for a refusal…): the status and
 * headers are the table's, the body the door's form. Then the daemon itself: a domain refusal,
 * an unknown path and an unknown method under each door's prefix, each in that door's form —
 * never REST's JSON under /dav/, never a 500.
 */
import { expect } from 'chai';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { Dav, ics } from '../caldav/dav.js';
import { createApp } from '../../src/door/app.js';
import { ERROR_TABLE, DoorError, type ErrorKind } from '../../src/door/errors.js';
import type { Door } from '../../src/door/door.js';
import { Credentials } from '../../src/door/credentials.js';
import { DoorLimits } from '../../src/door/limits.js';
import { createLogger } from '../../src/logger.js';
import { Conflict, Forbidden, Invalid, NotFound } from '../../src/domain/shared/errors.js';
import { UpstreamError } from '../../src/integrations/upstream.js';
import { StoreWriteError } from '../../src/store/errors.js';
import { OwnedElsewhere } from '../../src/family/ownership.js';

const KINDS = Object.keys(ERROR_TABLE) as ErrorKind[];

/** The error a kind stands for, as the code that meets it throws it (else the door's own). */
const THROWN: Partial<Record<ErrorKind, () => Error>> = {
  invalid: () => Invalid.at(['title'], 'is required'),
  forbidden: () => new Forbidden('not yours'),
  not_found: () => new NotFound('No such thing'),
  conflict: () => new Conflict('taken'),
  upstream_failed: () => new UpstreamError('failed', 'the weather service failed'),
  upstream_timeout: () => new UpstreamError('timeout', 'the weather service did not answer'),
  not_configured: () => new UpstreamError('not_configured', 'no weather service'),
  unsupported_content: () => new UpstreamError('unsupported_content', 'a PDF'),
  store_full: () => new StoreWriteError('full', 'ENOSPC'),
  store_failed: () => new StoreWriteError('failed', 'EIO'),
  owned_elsewhere: () => new OwnedElsewhere('fam_x', null),
  internal: () => new TypeError('a bug'),
};

function errorOf(kind: ErrorKind): Error {
  return THROWN[kind]?.() ?? new DoorError(kind, `a ${kind} refusal`);
}

/** What each door's form looks like: status and headers are checked apart. */
function expectForm(door: string, path: string, kind: ErrorKind, text: string, type: string) {
  const code = ERROR_TABLE[kind].code;
  if (door === 'caldav') {
    expect(type, `${door} ${kind}`).to.match(/^application\/xml/);
    expect(text)
      .to.match(/<d:error[ >]/)
      .and.include('<h:message');
    return;
  }
  if (door === 'pages' || (door === 'oauth' && path === '/oauth/authorize')) {
    expect(type, `${door} ${kind}`).to.match(/^text\/html/);
    expect(text).to.include('<!doctype html>');
    return;
  }
  const body = JSON.parse(text) as Record<string, any>;
  if (door === 'oauth') {
    expect(body.error, `${door} ${kind}`).to.be.a('string');
    expect(body.error_description).to.be.a('string');
  } else if (door === 'mcp') {
    expect(body, `${door} ${kind}`).to.include({ jsonrpc: '2.0', id: null });
    expect(body.error.data.code).to.equal(code);
  } else {
    expect(body, `${door} ${kind}`).to.include({ ok: false, code });
  }
}

describe('the error table, through every door', function () {
  this.timeout(60_000);
  let server: TestServer;
  let app: Server;
  let base = '';

  before(async () => {
    server = await startTestServer();
    const d = server.daemon;
    // Every door of the daemon with its own form, serving one handler that throws what
    // ?kind= names; the daemon's routes are left out (the second part asks the daemon).
    const doors: Door<any>[] = d.doors.map((door) => ({
      ...door,
      routes: [],
      handler: () => (ctx: any) => {
        throw errorOf(ctx.query.kind as ErrorKind);
      },
    }));
    const services = {
      config: server.config,
      addresses: d.addresses,
      registry: d.registry,
      now: () => new Date(),
      logger: createLogger('silent'),
      credentials: new Credentials(d.store),
      limits: new DoorLimits(server.config.rateLimit, Date.now),
      store: d.store,
    };
    const built = createApp({
      services,
      doors,
      directory: d.store,
      baseUrl: () => base,
      version: 'test',
    });
    const handle = built.app.callback();
    app = createServer((req, res) => void handle(req, res));
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
  });
  after(async () => {
    app?.closeAllConnections();
    await new Promise((resolve) => app?.close(resolve));
    await server?.close();
  });

  it('has a door for every kind of request the daemon answers, REST first', () => {
    expect(server.daemon.doors.map((d) => d.name)).to.deep.equal([
      'rest',
      'public',
      'stream',
      'oauth',
      'mcp',
      'caldav',
      'pages',
    ]);
  });

  it("answers every kind with the table's status and Retry-After, in every door's own form", async () => {
    const paths: Record<string, string[]> = {
      rest: ['/api/v1/families/home/people'],
      stream: ['/api/v1/families/home/changes/stream'],
      public: ['/p/sometoken'],
      oauth: ['/oauth/token', '/oauth/authorize'],
      mcp: ['/mcp'],
      caldav: ['/dav/home/calendar/'],
      pages: ['/people'],
    };
    for (const door of server.daemon.doors) {
      for (const path of paths[door.name]) {
        for (const kind of KINDS) {
          const res = await fetch(`${base}${path}?kind=${kind}`, { method: 'POST' });
          const row = ERROR_TABLE[kind] as { status: number; retryAfter?: number };
          expect(res.status, `${door.name} ${path} ${kind}`).to.equal(row.status);
          const retry = res.headers.get('retry-after');
          if (row.retryAfter !== undefined)
            expect(retry, `${door.name} ${kind}`).to.equal(String(row.retryAfter));
          else expect(retry, `${door.name} ${kind}`).to.equal(null);
          expectForm(
            door.name,
            path,
            kind,
            await res.text(),
            res.headers.get('content-type') ?? '',
          );
        }
      }
    }
  });

  it('names the precondition a full disk fails in CalDAV (DAV:sufficient-disk-space)', async () => {
    const res = await fetch(`${base}/dav/home/calendar/x.ics?kind=store_full`, { method: 'PUT' });
    expect(res.status).to.equal(507);
    expect(await res.text()).to.include('sufficient-disk-space');
  });
});

describe('the doors of the daemon: refusals, unknown paths and methods in their own form', function () {
  this.timeout(60_000);
  let server: TestServer;
  let dav: Dav;

  before(async () => {
    server = await startTestServer();
    dav = new Dav(server, 'home', server.apiKey);
  });
  after(() => server?.close());

  const json = async (res: Response) => ({
    status: res.status,
    allow: res.headers.get('allow'),
    body: (await res.json()) as Record<string, any>,
  });

  it('REST: a domain refusal, an unknown path and an unknown method, as JSON', async () => {
    const refused = await server.api.post('/trackers/nope/entries', { title: 'x' });
    expect([refused.status, refused.body.code]).to.deep.equal([404, 'not_found']);
    const lost = await server.http.get('/api/v1/nope');
    expect([lost.status, lost.body.code]).to.deep.equal([404, 'not_found']);
    const put = await server.api.request('PUT', '/people');
    expect([put.status, put.body.code]).to.deep.equal([405, 'method_not_allowed']);
    expect(put.headers.get('allow')).to.include('GET').and.include('POST');
    const purge = await server.api.request('PURGE', '/people');
    expect([purge.status, purge.body.code]).to.deep.equal([501, 'not_implemented']);
  });

  it('the live stream: a refused start, and a method its path does not take, as JSON', async () => {
    const bad = await server.api.get('/changes/stream', { headers: { 'last-event-id': 'x' } });
    expect([bad.status, bad.body.code]).to.deep.equal([400, 'invalid_request']);
    const del = await server.api.delete('/changes/stream');
    expect([del.status, del.body.code]).to.deep.equal([405, 'method_not_allowed']);
  });

  it('the public pages: an unknown link, an unknown path and method, as JSON', async () => {
    // A person's browser gets the page's own "nothing here"; a program its JSON.
    const page = await server.http.get('/p/pln_nope', { headers: { accept: 'text/html' } });
    expect([page.status, page.headers.get('content-type')]).to.deep.equal([
      404,
      'text/html; charset=utf-8',
    ]);
    const link = await server.http.get('/p/pln_nope', { headers: { accept: 'application/json' } });
    expect([link.status, link.body.code]).to.deep.equal([404, 'not_found']);
    const lost = await server.http.get('/share/nope/x/y');
    expect([lost.status, lost.body.code]).to.deep.equal([404, 'not_found']);
    const post = await server.http.post('/p/pln_nope', {});
    expect([post.status, post.body.code]).to.deep.equal([405, 'method_not_allowed']);
  });

  it('CalDAV: a refused object, a missing collection or object, and an unknown method, as DAV:error — never JSON', async () => {
    const refused = await dav.put(
      '/dav/home/calendar/a.ics',
      ics(
        'BEGIN:VEVENT',
        'UID:p',
        'DTSTART:20261201T100000',
        'X-HOUSEHOLD-OWNER:per_nobody',
        'END:VEVENT',
      ),
    );
    expect(refused.status).to.equal(403);
    expect(refused.text).to.include('valid-calendar-object-resource');
    for (const [method, path, body] of [
      ['PROPFIND', '/dav/home/nope/', undefined],
      ['GET', '/dav/home/nope/x.ics', undefined],
      ['GET', '/dav/home/calendar/nope.ics', undefined],
      [
        'REPORT',
        '/dav/home/nope/',
        '<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/></d:prop></c:calendar-query>',
      ],
      ['GET', '/dav/home/a/b/c/d', undefined],
    ] as const) {
      const r = await dav.request(method, path, body, { depth: '0' });
      expect(r.status, `${method} ${path}`).to.equal(404);
      expect(r.headers.get('content-type'), `${method} ${path}`).to.match(/^application\/xml/);
      expect(r.text).to.include('<d:error');
    }
    for (const [path, allow] of [
      ['/dav/home/calendar/', 'MKCALENDAR'],
      ['/dav/home/calendar/x.ics', 'PUT'],
    ] as const) {
      const r = await dav.request('LOCK', path);
      expect(r.status, path).to.equal(405);
      expect(r.headers.get('allow'), path).to.include(allow);
      expect(r.text).to.include('<d:error');
    }
    const put = await dav.request('PUT', '/dav/home/calendar/', 'x', {
      'content-type': 'text/calendar',
    });
    expect(put.status).to.equal(405);
    expect(put.headers.get('allow')).to.not.include('PUT');
  });

  it('the household pages: a form without its token, an unknown path and method, as pages', async () => {
    const refused = await fetch(`${server.url}/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'key=x',
    });
    const lost = await fetch(`${server.url}/pair/nope/x/y`);
    const put = await fetch(`${server.url}/people`, { method: 'PUT' });
    for (const [res, status] of [
      [refused, 403],
      [lost, 404],
      [put, 405],
    ] as const) {
      expect(res.status).to.equal(status);
      expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      expect(await res.text()).to.include('<!doctype html>');
    }
    expect(put.headers.get('allow')).to.include('GET').and.include('POST');
  });

  it('OAuth: a refused request, an unknown path and an unknown method, as OAuth error JSON', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const refused = await json(
      await fetch(`${server.url}/oauth/token`, {
        method: 'POST',
        headers: form,
        body: 'grant_type=x',
      }),
    );
    expect([refused.status, refused.body.error]).to.deep.equal([401, 'invalid_client']);
    const scope = await json(
      await fetch(`${server.url}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"redirect_uris": ["http://evil.example/cb"]}',
      }),
    );
    expect([scope.status, scope.body.error]).to.deep.equal([400, 'invalid_redirect_uri']);
    const lost = await json(await fetch(`${server.url}/oauth/nope`));
    expect([lost.status, lost.body.error]).to.deep.equal([404, 'invalid_request']);
    const del = await json(await fetch(`${server.url}/oauth/token`, { method: 'DELETE' }));
    expect([del.status, del.body.error, del.allow]).to.deep.equal([405, 'invalid_request', 'POST']);
  });

  it('MCP: a refused tool call in its result, an unknown path and method as JSON-RPC errors', async () => {
    const rpc = (body: unknown) =>
      fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: {
          'x-api-key': server.apiKey,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify(body),
      });
    const call = await json(
      await rpc({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'create_entry', arguments: { collectionKey: 'nope', title: 'x' } },
      }),
    );
    expect(call.status).to.equal(200);
    expect(call.body.result.isError).to.equal(true);
    expect(call.body.result.structuredContent.code).to.equal('not_found');
    const lost = await json(await fetch(`${server.url}/mcp/nope`, { method: 'POST' }));
    expect([lost.status, lost.body.jsonrpc, lost.body.error.data.code]).to.deep.equal([
      404,
      '2.0',
      'not_found',
    ]);
    const get = await json(
      await fetch(`${server.url}/mcp`, { headers: { 'x-api-key': server.apiKey } }),
    );
    expect([get.status, get.allow, get.body.error.data.code]).to.deep.equal([
      405,
      'POST',
      'method_not_allowed',
    ]);
  });
});
