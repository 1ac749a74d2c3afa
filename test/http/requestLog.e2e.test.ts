/**
 * The request log line through the running daemon: the client's address (the proxy's report
 * only from a peer in server.trustedProxies, or with the deprecated server.trustProxy) and user
 * agent on every line; the path of a request no route
 * matched, without its query string and with tokens cut out; never a key or a share token.
 */
import { expect } from 'chai';
import { Writable } from 'node:stream';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { createLogger } from '../../src/logger.js';

type Line = Record<string, unknown>;

async function logged(server: {
  trustProxy?: boolean;
  trustedProxies?: string[];
}): Promise<{ server: TestServer; lines: Line[] }> {
  const lines: Line[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      for (const l of String(chunk).split('\n')) if (l) lines.push(JSON.parse(l));
      cb();
    },
  });
  const daemon = await startTestServer({
    logger: createLogger('info', sink),
    overrides: { server },
  });
  return { server: daemon, lines };
}

/** The request line of the request with this id (pino writes asynchronously: wait a moment for it). */
async function lineOf(lines: Line[], requestId: string): Promise<Line> {
  for (let i = 0; i < 100; i++) {
    const hit = lines.find(
      (l) => l.requestId === requestId && (l.msg === 'request' || l.msg === 'request failed'),
    );
    if (hit) return hit;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`no log line for ${requestId}`);
}

describe('request log lines', function () {
  this.timeout(30_000);

  describe('without a trusted proxy', () => {
    let server: TestServer;
    let lines: Line[];
    before(async () => {
      ({ server, lines } = await logged({}));
    });
    after(() => server?.close());

    it('name the client address and user agent, and a matched route by its template only', async () => {
      await server.api.get('/people', {
        headers: {
          'x-request-id': 'log-1',
          'user-agent': 'WallTablet/2.1',
          'x-forwarded-for': '203.0.113.9',
        },
      });
      const line = await lineOf(lines, 'log-1');
      expect(line).to.include({
        method: 'GET',
        route: '/api/v1/families/:familySlug/people',
        status: 200,
        family: 'home',
        ip: '127.0.0.1',
        userAgent: 'WallTablet/2.1',
      });
      expect(line).to.not.have.property('path');
    });

    it('cut the user agent to 200 characters, and say null when there is none', async () => {
      await server.api.get('/people', {
        headers: { 'x-request-id': 'log-2', 'user-agent': `x${'y'.repeat(300)}` },
      });
      expect((await lineOf(lines, 'log-2')).userAgent).to.equal(`x${'y'.repeat(199)}`);
      await server.api.get('/people', {
        headers: { 'x-request-id': 'log-2b', 'user-agent': 'z'.repeat(200) },
      });
      expect((await lineOf(lines, 'log-2b')).userAgent).to.equal('z'.repeat(200));
      // fetch always sends one; a raw request without it:
      const res = await new Promise<number>((resolve, reject) => {
        import('node:http').then(({ request }) => {
          const req = request(
            `${server.url}/healthz`,
            { headers: { 'x-request-id': 'log-3' } },
            (r) => {
              r.resume();
              r.on('end', () => resolve(r.statusCode!));
            },
          );
          req.on('error', reject);
          req.end();
        }, reject);
      });
      expect(res).to.equal(200);
      expect((await lineOf(lines, 'log-3')).userAgent).to.equal(null);
    });

    it('give the path of an unknown path, without the query string and with tokens and keys cut out', async () => {
      const cases: [string, string][] = [
        ['/no/such/path?token=shr_secret&key=hk_x', '/no/such/path'],
        [`/p/pln_${'A'.repeat(32)}/extra`, '/p/:redacted/extra'],
        [`/share/calendar/shr_${'B'.repeat(32)}.ics/more`, '/share/calendar/:redacted/more'],
        [
          `/api/v1/families/home/hk_abcdefghijkl_${'C'.repeat(32)}`,
          '/api/v1/families/home/:redacted',
        ],
      ];
      let n = 0;
      for (const [path, expected] of cases) {
        const id = `log-path-${n++}`;
        const r = await server.http.get(path, { headers: { 'x-request-id': id } });
        expect(r.status, path).to.equal(404);
        const line = await lineOf(lines, id);
        expect(line).to.include({ route: null, path: expected, status: 404 });
        expect(JSON.stringify(line)).to.not.match(/shr_|pln_|hk_|token=|AAAA|BBBB|CCCC/);
      }
      // A path that matches no method (405) is an unmatched request too.
      await server.api.request('PUT', '/people', {
        headers: { 'x-request-id': 'log-405' },
        body: {},
      });
      expect(await lineOf(lines, 'log-405')).to.include({
        route: null,
        path: '/api/v1/families/home/people',
        status: 405,
      });
    });

    it('never log a plan-share token of a page that exists (the route template stands for it)', async () => {
      const token = `pln_${'D'.repeat(32)}`;
      await server.http.get(`/p/${token}`, { headers: { 'x-request-id': 'log-share' } });
      const line = await lineOf(lines, 'log-share');
      expect(line.route).to.equal('/p/:token');
      expect(JSON.stringify(line)).to.not.include(token);
    });
  });

  describe('behind trusted proxies (server.trustedProxies)', () => {
    let server: TestServer;
    let lines: Line[];
    before(async () => {
      ({ server, lines } = await logged({ trustedProxies: ['127.0.0.1', '10.0.0.0/8'] }));
    });
    after(() => server?.close());

    it('log the rightmost X-Forwarded-For address that is not a trusted proxy itself', async () => {
      // Client → (10.1.2.3, an inner proxy) → this peer: the inner proxy is skipped; what the
      // client wrote before its own address is not believed.
      await server.api.get('/people', {
        headers: {
          'x-request-id': 'chain-1',
          'x-forwarded-for': '198.51.100.7, 203.0.113.9, 10.1.2.3',
        },
      });
      expect((await lineOf(lines, 'chain-1')).ip).to.equal('203.0.113.9');
      await server.api.get('/people', {
        headers: { 'x-request-id': 'chain-2', 'x-forwarded-for': 'junk, 10.1.2.3' },
      });
      expect((await lineOf(lines, 'chain-2')).ip).to.equal('10.1.2.3');
      await server.api.get('/people', { headers: { 'x-request-id': 'chain-3' } });
      expect((await lineOf(lines, 'chain-3')).ip).to.equal('127.0.0.1');
    });
  });

  describe('with the deprecated server.trustProxy', () => {
    let server: TestServer;
    let lines: Line[];
    before(async () => {
      ({ server, lines } = await logged({ trustProxy: true }));
    });
    after(() => server?.close());

    it('log the address the proxy reports: the last X-Forwarded-For entry, as before', async () => {
      await server.api.get('/people', {
        headers: { 'x-request-id': 'proxy-1', 'x-forwarded-for': '198.51.100.7, 203.0.113.9' },
      });
      expect((await lineOf(lines, 'proxy-1')).ip).to.equal('203.0.113.9');
      await server.api.get('/people', { headers: { 'x-request-id': 'proxy-2' } });
      expect((await lineOf(lines, 'proxy-2')).ip).to.equal('127.0.0.1');
    });
  });
});
