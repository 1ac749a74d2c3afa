/**
 * CORS on the wire (server.corsOrigins): none by default; a listed origin's preflight is
 * answered 204 without a key, before routing and authentication; its requests (errors
 * included) carry the headers a page needs; any other origin gets no CORS header at all.
 * The browser's own verdict is in corsBrowser.e2e.test.ts.
 */
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { loadConfig, ConfigError } from '../../src/config.js';

const TABLET = 'http://tablet.local:3000';
const CORS_HEADERS = [
  'access-control-allow-origin',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-max-age',
  'access-control-expose-headers',
  'access-control-allow-credentials',
];

function corsHeaders(headers: Headers): Record<string, string> {
  return Object.fromEntries(
    CORS_HEADERS.filter((h) => headers.has(h)).map((h) => [h, headers.get(h)!]),
  );
}

function preflight(
  server: TestServer,
  path: string,
  origin: string,
  method = 'POST',
  headers = 'x-api-key, content-type, idempotency-key',
) {
  return server.http.request('OPTIONS', path, {
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': headers,
    },
  });
}

describe('CORS (server.corsOrigins)', function () {
  this.timeout(30_000);

  describe('with no origins configured (the default)', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer();
    });
    after(() => server?.close());

    it('sends no CORS header to any origin, on preflights or requests', async () => {
      expect(server.config.server.corsOrigins).to.deep.equal([]);
      const pre = await preflight(server, '/api/v1/families/home/people', TABLET);
      expect(corsHeaders(pre.headers)).to.deep.equal({});
      const get = await server.api.get('/people', { headers: { origin: TABLET } });
      expect(get.status).to.equal(200);
      expect(corsHeaders(get.headers)).to.deep.equal({});
    });
  });

  describe('with a listed origin', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer({
        overrides: {
          server: { corsOrigins: [TABLET, 'https://dash.example.org'] },
          rateLimit: { perMinute: 100_000, publicPerMinute: 3 },
        },
      });
    });
    after(() => server?.close());

    it('answers its preflight 204 without a key, naming the methods and headers a page may use', async () => {
      const r = await preflight(server, '/api/v1/families/home/people', TABLET);
      expect(r.status).to.equal(204);
      expect(r.text).to.equal('');
      expect(corsHeaders(r.headers)).to.deep.equal({
        'access-control-allow-origin': TABLET,
        'access-control-allow-methods': 'GET, POST, PATCH, PUT, DELETE',
        'access-control-allow-headers': 'x-api-key, content-type, idempotency-key, x-request-id',
        'access-control-max-age': '600',
      });
      expect(r.headers.get('vary')).to.include('Origin');
      expect(r.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
    });

    it('answers preflights before the router and the rate limits: never a 405, a 404 or a 429', async () => {
      // A PATCH-only path, a path that does not exist, and more preflights than the per-address limit (3).
      for (let i = 0; i < 5; i++) {
        for (const [path, method] of [
          ['/api/v1/families/home/people/person_x', 'PATCH'],
          ['/no/such/path', 'GET'],
          ['/healthz', 'GET'],
        ] as const) {
          const r = await preflight(server, path, 'https://dash.example.org', method);
          expect(r.status, `${method} ${path}`).to.equal(204);
          expect(r.headers.get('access-control-allow-origin')).to.equal('https://dash.example.org');
        }
      }
    });

    it('lets its requests through every usual check, with the headers the page may read', async () => {
      const r = await server.api.post(
        '/people',
        { name: 'Ana' },
        { headers: { origin: TABLET, 'Idempotency-Key': 'cors-1' } },
      );
      expect(r.status).to.equal(201);
      expect(r.body.person.displayName).to.equal('Ana');
      expect(corsHeaders(r.headers)).to.deep.equal({
        'access-control-allow-origin': TABLET,
        'access-control-expose-headers':
          'x-request-id, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Idempotent-Replayed',
      });
      expect(r.headers.get('vary')).to.include('Origin');
      const replay = await server.api.post(
        '/people',
        { name: 'Ana' },
        { headers: { origin: TABLET, 'Idempotency-Key': 'cors-1' } },
      );
      expect(replay.headers.get('idempotent-replayed')).to.equal('true');
      expect(replay.headers.get('access-control-allow-origin')).to.equal(TABLET);
    });

    it('puts the headers on error answers too, so the page can read why (401, 404)', async () => {
      const noKey = await server.api.get('/people', { key: null, headers: { origin: TABLET } });
      expect(noKey.status).to.equal(401);
      expect(noKey.body.code).to.equal('unauthorized');
      expect(noKey.headers.get('access-control-allow-origin')).to.equal(TABLET);
      const missing = await server.http.get('/no/such/path', { headers: { origin: TABLET } });
      expect(missing.status).to.equal(404);
      expect(missing.headers.get('access-control-allow-origin')).to.equal(TABLET);
    });

    it('never allows credentials', async () => {
      const pre = await preflight(server, '/api/v1/families/home/people', TABLET);
      const get = await server.api.get('/people', { headers: { origin: TABLET } });
      expect(pre.headers.has('access-control-allow-credentials')).to.equal(false);
      expect(get.headers.has('access-control-allow-credentials')).to.equal(false);
    });

    it('gives another origin — or the same host on another port or scheme — no CORS header at all', async () => {
      for (const origin of [
        'http://evil.example',
        'http://tablet.local:3001',
        'https://tablet.local:3000',
        'http://TABLET.local:3000',
        'null',
      ]) {
        const pre = await preflight(server, '/api/v1/families/home/people', origin);
        expect(corsHeaders(pre.headers), origin).to.deep.equal({});
        expect(pre.status, origin).to.not.equal(204);
        const get = await server.api.get('/people', { headers: { origin } });
        expect(get.status).to.equal(200); // served as to any client; the browser withholds it from the page
        expect(corsHeaders(get.headers), origin).to.deep.equal({});
        expect(get.headers.get('vary')).to.include('Origin');
      }
    });

    it('leaves requests without Origin (curl, scripts) as they were', async () => {
      const r = await server.api.get('/people');
      expect(r.status).to.equal(200);
      expect(corsHeaders(r.headers)).to.deep.equal({});
      const options = await server.http.request('OPTIONS', '/api/v1/families/home/people');
      expect(options.headers.has('access-control-allow-origin')).to.equal(false);
    });
  });

  describe('with "*"', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer({ overrides: { server: { corsOrigins: ['*'] } } });
    });
    after(() => server?.close());

    it('allows every origin with a literal *, without credentials and without Vary: Origin', async () => {
      const pre = await preflight(
        server,
        '/api/v1/families/home/people',
        'http://anything.example:8123',
      );
      expect(pre.status).to.equal(204);
      expect(pre.headers.get('access-control-allow-origin')).to.equal('*');
      const get = await server.api.get('/people', {
        headers: { origin: 'http://anything.example:8123' },
      });
      expect(get.headers.get('access-control-allow-origin')).to.equal('*');
      expect(get.headers.has('access-control-allow-credentials')).to.equal(false);
      expect(get.headers.get('vary') ?? '').to.not.include('Origin');
    });
  });

  it('takes origins as browsers send them, and names a wrong one', () => {
    const load = (origins: unknown) =>
      loadConfig({ env: {}, overrides: { server: { corsOrigins: origins } as never } });
    expect(
      load(['http://tablet.local:3000', 'https://dash.example.org', 'http://[::1]:8123', '*'])
        .server.corsOrigins,
    ).to.have.length(4);
    const wrong: [unknown, string][] = [
      ['http://tablet.local:3000/', 'server.corsOrigins.0'],
      ['http://tablet.local:3000/dash', 'server.corsOrigins.0'],
      ['https://dash.example.org:443', 'server.corsOrigins.0'],
      ['HTTP://Tablet.local', 'server.corsOrigins.0'],
      ['tablet.local:3000', 'server.corsOrigins.0'],
      ['ftp://tablet.local', 'server.corsOrigins.0'],
      ['', 'server.corsOrigins.0'],
    ];
    for (const [origin, key] of wrong) {
      expect(() => load([origin]), String(origin)).to.throw(
        ConfigError,
        `config key "${key}" is invalid`,
      );
    }
    expect(() => load(['http://ok.example', 'http://bad.example/'])).to.throw(
      ConfigError,
      'config key "server.corsOrigins.1" is invalid: must be "*" or an origin such as http://tablet.local:3000 (scheme, host and port as a browser sends them: no path, no trailing slash, lower case), got "http://bad.example/"',
    );
    expect(() => load('http://tablet.local:3000')).to.throw(ConfigError, /"server.corsOrigins"/);
  });
});
