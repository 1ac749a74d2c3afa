import { expect } from 'chai';
import type { LookupFunction } from 'node:net';
import { gzipSync } from 'node:zlib';
import {
  createEgress,
  EgressError,
  type EgressRequest,
  type EgressResponse,
} from '../../src/integrations/egress.js';
import { startLocalService, type Handler, type LocalService } from './localService.js';

// The client against real HTTP servers on 127.0.0.1, under policy `any` (the only policy that
// lets a call reach loopback). Refusals are in egressPolicy.e2e.test.ts.

const egress = createEgress({ userAgent: 'household-organizer/test' });

async function failure(p: Promise<EgressResponse>): Promise<EgressError> {
  try {
    await p;
  } catch (e) {
    expect(e, String(e)).to.be.instanceOf(EgressError);
    return e as EgressError;
  }
  throw new Error('the call succeeded');
}

describe('egress.request', () => {
  const services: LocalService[] = [];
  async function service(handler: Handler): Promise<LocalService> {
    const s = await startLocalService(handler);
    services.push(s);
    return s;
  }
  afterEach(async () => {
    await Promise.all(services.splice(0).map((s) => s.close()));
  });

  const call = (url: string, over: Partial<EgressRequest> = {}) =>
    egress.request({ url, policy: 'any', timeoutMs: 2000, maxBytes: 1024 * 1024, ...over });

  describe('answers', () => {
    it('returns the status, headers, decompressed body, final URL and the address it connected to', async () => {
      const text = 'Hello from the feed\n'.repeat(100);
      const s = await service((_req, res) => {
        res.writeHead(200, {
          'content-type': 'text/plain',
          'content-encoding': 'gzip',
          'x-feed': 'yes',
        });
        res.end(gzipSync(text));
      });
      const r = await call(`${s.origin}/feed.ics?x=1`);
      expect(r.status).to.equal(200);
      expect(r.headers['x-feed']).to.equal('yes');
      expect(
        r.headers['content-encoding'],
        'describes the body as returned, decompressed',
      ).to.equal(undefined);
      expect(r.body.toString()).to.equal(text);
      expect(r.url).to.equal(`${s.origin}/feed.ics?x=1`);
      expect(r.redirects).to.deep.equal([]);
      expect(r.address).to.equal('127.0.0.1');
      expect(r.durationMs).to.be.a('number').and.at.least(0);
      expect(s.requests[0].headers['accept-encoding']).to.contain('gzip');
    });

    it('sends the method, headers, body and its user agent', async () => {
      const s = await service((_req, res) => {
        res.writeHead(202);
        res.end('queued');
      });
      const payload = JSON.stringify({ event: 'entry.created', id: 'e1' });
      const r = await call(`${s.origin}/hook`, {
        method: 'POST',
        body: payload,
        headers: { 'content-type': 'application/json', 'x-signature': 'sig' },
      });
      expect(r.status).to.equal(202);
      expect(r.body.toString()).to.equal('queued');
      const seen = s.requests[0];
      expect(seen.method).to.equal('POST');
      expect(seen.body.toString()).to.equal(payload);
      expect(seen.headers['content-type']).to.equal('application/json');
      expect(seen.headers['x-signature']).to.equal('sig');
      expect(seen.headers['user-agent']).to.equal('household-organizer/test');
    });

    it('sends a POST without a body as an empty one instead of waiting for it', async () => {
      const s = await service((_req, res) => res.end('ok'));
      const r = await call(`${s.origin}/ping`, { method: 'POST', timeoutMs: 1000 });
      expect(r.body.toString()).to.equal('ok');
      expect(s.requests[0].headers['content-length']).to.equal('0');
    });

    it('names itself household-organizer/<version> unless told otherwise', async () => {
      const s = await service((_req, res) => res.end());
      await createEgress().request({ url: s.origin, policy: 'any', timeoutMs: 1000, maxBytes: 10 });
      expect(s.requests[0].headers['user-agent']).to.match(/^household-organizer\/\d+\.\d+\.\d+/);
    });

    it('returns a 4xx or 5xx answer with its body instead of throwing', async () => {
      const s = await service((req, res) => {
        res.writeHead(req.url === '/gone' ? 410 : 503, { 'retry-after': '30' });
        res.end(req.url === '/gone' ? 'gone' : 'busy');
      });
      const gone = await call(`${s.origin}/gone`);
      expect([gone.status, gone.body.toString()]).to.deep.equal([410, 'gone']);
      const busy = await call(`${s.origin}/busy`);
      expect([busy.status, busy.body.toString(), busy.headers['retry-after']]).to.deep.equal([
        503,
        'busy',
        '30',
      ]);
      expect(s.requests).to.have.length(2); // no retries
    });

    for (const url of [
      'ftp://127.0.0.1/file',
      'file:///etc/passwd',
      'not a url',
      '/relative/path',
      'http://unix:/var/run/docker.sock:/containers/json',
    ]) {
      it(`refuses ${JSON.stringify(url)} as a bad URL before anything is sent`, async () => {
        const e = await failure(call(url));
        expect(e.kind).to.equal('bad_url');
      });
    }

    it('reports a refused connection and a failed lookup as network errors', async () => {
      const closed = await startLocalService(() => undefined);
      const port = closed.port;
      await closed.close();
      const refused = await failure(call(`http://127.0.0.1:${port}/`));
      expect(refused.kind).to.equal('network');
      expect(refused.message).to.contain('ECONNREFUSED');
      const noAnswer: LookupFunction = (hostname, _o, cb) =>
        cb(
          Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }),
          '',
        );
      const unresolved = await failure(
        createEgress({ lookup: noAnswer }).request({
          url: 'http://nowhere.test/',
          policy: 'any',
          timeoutMs: 1000,
          maxBytes: 10,
        }),
      );
      expect(unresolved.kind).to.equal('network');
      expect(unresolved.message).to.contain('ENOTFOUND');
      expect(unresolved.host).to.equal('nowhere.test');
    });

    it('rejects a request without a positive timeout or byte cap', async () => {
      for (const over of [
        { timeoutMs: 0 },
        { maxBytes: 0 },
        { timeoutMs: Number.NaN },
        { followRedirects: -1 },
      ]) {
        let thrown: unknown;
        try {
          await call('http://127.0.0.1:9/', over);
        } catch (e) {
          thrown = e;
        }
        expect(thrown, JSON.stringify(over)).to.be.instanceOf(TypeError);
      }
    });
  });

  describe('timeouts', () => {
    it('gives up on a server that never answers once timeoutMs has passed', async () => {
      const s = await service(() => {
        /* never answers */
      });
      const t0 = Date.now();
      const e = await failure(call(s.origin, { timeoutMs: 300 }));
      const took = Date.now() - t0;
      expect(e.kind).to.equal('timeout');
      expect(e.message).to.contain('300 ms');
      // Ended by its own timeout: not before it, and long before anything else would end it.
      expect(took).to.be.within(280, 5_000);
      expect(s.requests).to.have.length(1);
    });

    it('gives up on a body that stops after the headers: the timeout covers the whole answer', async () => {
      const s = await service((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('partial');
      });
      const t0 = Date.now();
      const e = await failure(call(s.origin, { timeoutMs: 300 }));
      expect(e.kind).to.equal('timeout');
      expect(Date.now() - t0).to.be.within(280, 5_000);
    });

    it('takes an answer that arrives just inside the timeout', async () => {
      const s = await service((_req, res) => {
        setTimeout(() => res.end('late but in time'), 150);
      });
      const r = await call(s.origin, { timeoutMs: 1000 });
      expect(r.body.toString()).to.equal('late but in time');
      expect(r.durationMs).to.be.at.least(140);
    });

    it('stops when the caller cancels', async () => {
      const s = await service(() => {
        /* never answers */
      });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      const e = await failure(call(s.origin, { timeoutMs: 5000, signal: controller.signal }));
      expect(e.kind).to.equal('aborted');
    });
  });

  describe('size cap', () => {
    const CAP = 64 * 1024;
    const gzipped =
      (n: number): Handler =>
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
        res.end(gzipSync(Buffer.alloc(n, 'a')));
      };

    it('takes a gzip body that decompresses to exactly the cap', async () => {
      const s = await service(gzipped(CAP));
      const r = await call(s.origin, { maxBytes: CAP });
      expect(r.body.length).to.equal(CAP);
      expect(r.body.every((b) => b === 0x61)).to.equal(true);
    });

    it('aborts a gzip body that decompresses to one byte past the cap', async () => {
      const s = await service(gzipped(CAP + 1));
      const e = await failure(call(s.origin, { maxBytes: CAP }));
      expect(e.kind).to.equal('too_large');
      expect(e.message).to.contain(String(CAP));
    });

    it('counts decompressed bytes, not transferred ones: a small gzip that inflates far past the cap is aborted', async () => {
      const bomb = gzipSync(Buffer.alloc(16 * 1024 * 1024));
      expect(bomb.length).to.be.below(CAP); // what crosses the wire is well under the cap
      const s = await service((_req, res) => {
        res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': String(bomb.length) });
        res.end(bomb);
      });
      const e = await failure(call(s.origin, { maxBytes: CAP }));
      expect(e.kind).to.equal('too_large');
    });

    it('refuses a declared Content-Length past the cap without waiting for the body', async () => {
      const s = await service((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(CAP + 1) });
        res.write('the rest never comes'); // only the header can end this call early
      });
      const t0 = Date.now();
      const e = await failure(call(s.origin, { maxBytes: CAP, timeoutMs: 25_000 }));
      expect(e.kind).to.equal('too_large');
      // Ended by the header, long before the call's timeout could end it.
      expect(Date.now() - t0).to.be.below(10_000);
    });

    it('takes a declared Content-Length of exactly the cap', async () => {
      const s = await service((_req, res) => {
        res.writeHead(200, { 'content-length': String(CAP) });
        res.end(Buffer.alloc(CAP, 'b'));
      });
      const r = await call(s.origin, { maxBytes: CAP });
      expect(r.body.length).to.equal(CAP);
    });

    it('aborts a chunked body without a length once it passes the cap', async () => {
      const s = await service((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write(Buffer.alloc(CAP, 'c'));
        res.write('d'); // one byte past; the stream stays open, so only the cap can end it
      });
      const e = await failure(call(s.origin, { maxBytes: CAP, timeoutMs: 5000 }));
      expect(e.kind).to.equal('too_large');
    });

    it('answers a HEAD whatever length it declares', async () => {
      const s = await service((_req, res) => {
        res.writeHead(200, { 'content-length': String(CAP * 10) });
        res.end();
      });
      const r = await call(s.origin, { method: 'HEAD', maxBytes: CAP });
      expect(r.status).to.equal(200);
      expect(r.headers['content-length']).to.equal(String(CAP * 10));
      expect(r.body.length).to.equal(0);
    });
  });

  describe('redirects', () => {
    const redirectTo =
      (location: string, status = 302): Handler =>
      (_req, res) => {
        res.writeHead(status, { location });
        res.end();
      };

    it('returns a redirect as it is when none may be followed (the default, as for webhooks)', async () => {
      const target = await service((_req, res) => res.end('target'));
      const s = await service(redirectTo(`${target.origin}/final`));
      const r = await call(`${s.origin}/start`);
      expect(r.status).to.equal(302);
      expect(r.headers.location).to.equal(`${target.origin}/final`);
      expect(r.redirects).to.deep.equal([]);
      expect(target.connections).to.equal(0);
    });

    it('follows up to followRedirects hops and reports the final URL', async () => {
      const target = await service((_req, res) => res.end('target'));
      const middle = await service(redirectTo(`${target.origin}/final`, 301));
      const s = await service(redirectTo(`${middle.origin}/middle`));
      const r = await call(`${s.origin}/start`, { followRedirects: 2 });
      expect(r.status).to.equal(200);
      expect(r.body.toString()).to.equal('target');
      expect(r.url).to.equal(`${target.origin}/final`);
      expect(r.redirects).to.deep.equal([`${middle.origin}/middle`, `${target.origin}/final`]);
    });

    it('refuses one hop more than followRedirects, without contacting it', async () => {
      const target = await service((_req, res) => res.end('target'));
      const middle = await service(redirectTo(`${target.origin}/final`));
      const s = await service(redirectTo(`${middle.origin}/middle`));
      const e = await failure(call(`${s.origin}/start`, { followRedirects: 1 }));
      expect(e.kind).to.equal('redirect_refused');
      expect(e.message).to.contain('more than 1 redirect');
      expect(middle.requests).to.have.length(1);
      expect(target.connections).to.equal(0);
    });

    for (const location of [
      'ftp://127.0.0.1/file',
      'file:///etc/passwd',
      'http://unix:/var/run/docker.sock:/info',
    ]) {
      it(`refuses a redirect to ${location}`, async () => {
        const s = await service(redirectTo(location));
        const e = await failure(call(s.origin, { followRedirects: 3 }));
        expect(e.kind).to.equal('redirect_refused');
      });
    }

    it('turns a POST answered with 303 into a GET at the new place', async () => {
      const target = await service((req, res) => res.end(req.method));
      const s = await service(redirectTo(`${target.origin}/done`, 303));
      const r = await call(s.origin, { method: 'POST', body: 'x', followRedirects: 1 });
      expect(r.body.toString()).to.equal('GET');
    });
  });
});
