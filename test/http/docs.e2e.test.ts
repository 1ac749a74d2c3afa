import { expect } from 'chai';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { startTestServer, tempDataDir, type TestServer } from '../helpers/server.js';
import { spawnDaemon } from '../helpers/child.js';
import { conforms } from '../helpers/contract.js';

const DIST = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const VERSION = JSON.parse(readFileSync(join(DIST, 'package.json'), 'utf8')).version as string;

/** Raw bytes of an answer, with the Accept-Encoding given (fetch would decode gzip itself). */
async function raw(
  url: string,
  acceptEncoding: string,
): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const { request } = await import('node:http');
  return new Promise((done, fail) => {
    const req = request(
      url,
      { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          done({
            status: res.statusCode!,
            headers: new Headers(res.headers as Record<string, string>),
            body: Buffer.concat(chunks),
          }),
        );
      },
    );
    req.on('error', fail);
    req.end();
  });
}

describe('GET /api/docs', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.close());

  it('serves the reference page without a key, loading only files of this daemon', async () => {
    const r = await server.http.get('/api/docs');
    expect(r.status).to.equal(200);
    expect(r.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(r.headers.get('cache-control')).to.equal('no-cache');
    const urls = [...r.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(urls).to.have.length(5);
    for (const u of urls)
      expect(u, u).to.match(/^\/api\/(docs\/assets\/[\w.-]+\?v=[\d.]+|v1\/openapi\.json)$/);
    expect(urls.filter((u) => u.includes(`?v=${VERSION}`))).to.have.length(4);
    await conforms(server, r, 'get', '/api/docs');
  });

  it('forbids every other origin with its Content-Security-Policy', async () => {
    for (const path of ['/api/docs', '/api/docs/assets/swagger-ui-bundle.js']) {
      const csp = (await server.http.get(path)).headers.get('content-security-policy')!;
      const rules = new Map(
        csp
          .split(';')
          .map((d) => d.trim().split(/\s+/))
          .map(([k, ...v]) => [k, v]),
      );
      expect(rules.get('default-src'), path).to.deep.equal(["'none'"]);
      for (const [name, sources] of rules) {
        for (const s of sources)
          expect(
            ["'self'", "'none'", "'unsafe-inline'", 'data:'],
            `${path} ${name} ${s}`,
          ).to.include(s);
      }
      expect(rules.get('connect-src')).to.deep.equal(["'self'"]);
      expect(rules.get('script-src')).to.deep.equal(["'self'"]);
      expect(rules.get('style-src')).to.deep.equal(["'self'"]);
    }
  });

  it("serves the renderer's files from node_modules with their types, cached for a year, gzipped when accepted", async () => {
    const files: [string, string][] = [
      ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
      ['swagger-ui.css', 'text/css; charset=utf-8'],
      ['favicon-32x32.png', 'image/png'],
    ];
    for (const [name, type] of files) {
      const url = `${server.url}/api/docs/assets/${name}?v=${VERSION}`;
      const plain = await raw(url, 'identity');
      expect(plain.status, name).to.equal(200);
      expect(plain.headers.get('content-type'), name).to.equal(type);
      expect(plain.headers.get('cache-control'), name).to.equal(
        'public, max-age=31536000, immutable',
      );
      expect(plain.headers.get('x-content-type-options'), name).to.equal('nosniff');
      expect(plain.headers.get('content-encoding'), name).to.equal(null);
      expect(plain.body.equals(readFileSync(join(DIST, name))), name).to.equal(true);
      if (name.endsWith('.png')) continue;
      const unasked = await raw(url, '');
      expect(unasked.headers.get('content-encoding'), name).to.equal(null);
      expect(unasked.body.equals(plain.body), name).to.equal(true);
      const zipped = await raw(url, 'gzip, deflate, br');
      expect(zipped.headers.get('content-encoding'), name).to.equal('gzip');
      expect(zipped.headers.get('vary'), name).to.match(/accept-encoding/i);
      expect(zipped.body.length, name).to.be.below(plain.body.length / 2);
      expect(gunzipSync(zipped.body).equals(plain.body), name).to.equal(true);
    }
    const init = await server.http.get('/api/docs/assets/init.js');
    expect(init.headers.get('content-type')).to.equal('text/javascript; charset=utf-8');
    expect(init.text).to.contain("fetch('/api/v1/openapi.json'").and.contain('validatorUrl: null');
  });

  it('serves nothing else from the package folder', async () => {
    for (const name of [
      'package.json',
      'index.html',
      'swagger-initializer.js',
      '..%2Fpackage.json',
      'swagger-ui-bundle.js.map',
    ]) {
      const r = await server.http.get(`/api/docs/assets/${name}`);
      expect(r.status, name).to.equal(404);
      expect(r.body, name).to.deep.equal({
        ok: false,
        error: 'No such file of the API reference',
        code: 'not_found',
      });
    }
    const traversal = await server.http.get('/api/docs/assets/../../../package.json');
    expect(traversal.status).to.equal(404);
    const bad = await server.http.get('/api/docs/assets/swagger-ui.css?v=1&other=2');
    expect(bad.status).to.equal(400);
    expect(bad.body.issues).to.deep.equal([
      { path: ['query', 'other'], message: 'is not a known field' },
    ]);
  });

  it('is named in the first-start banner', async function () {
    this.timeout(30_000);
    const dir = tempDataDir();
    const d = await spawnDaemon(dir);
    try {
      expect(d.output()).to.include(
        `API reference in a browser (no key needed to read it): ${d.url}/api/docs`,
      );
      expect((await fetch(`${d.url}/api/docs`)).status).to.equal(200);
    } finally {
      d.proc.kill('SIGTERM');
      await d.exited;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
