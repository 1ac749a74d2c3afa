/**
 * Request bodies through the real server (middleware/body.ts): hostile shapes get a 400 naming
 * the place, content types and encodings are read or refused (never ignored), the size limit
 * holds on the wire and decoded, and no body text reaches the log.
 */
import { expect } from 'chai';
import { request as httpRequest } from 'node:http';
import { Writable } from 'node:stream';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { startTestServer, type TestServer, type Reply } from '../helpers/server.js';
import { createLogger } from '../../src/logger.js';
import * as changes from '../helpers/changes.js';

const nested = (levels: number, inner = '1') => '['.repeat(levels) + inner + ']'.repeat(levels);
const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));

/** Sends a raw body with chunked transfer encoding (no Content-Length), as a streaming client does. */
function sendChunked(
  server: TestServer,
  path: string,
  chunks: Buffer[],
  headers: Record<string, string>,
): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${server.url}/api/v1/families/home${path}`,
      {
        method: 'POST',
        headers: { 'x-api-key': server.apiKey, 'transfer-encoding': 'chunked', ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    for (const c of chunks) req.write(c);
    req.end();
  });
}

/** A server whose body limit is `bytes` (the whole `server` block is given so it still binds 127.0.0.1:0). */
function withLimit(
  bytes: number,
  extra: Parameters<typeof startTestServer>[0] = {},
): Promise<TestServer> {
  return startTestServer({
    ...extra,
    overrides: {
      server: {
        host: '127.0.0.1',
        port: 0,
        publicUrl: 'http://share.test',
        trustedProxies: [],
        bodyLimitBytes: bytes,
      },
    },
  });
}

function expectRefused(r: Reply, status: number, code: string): void {
  expect(r.status, r.text.slice(0, 300)).to.equal(status);
  expect(r.body).to.include({ ok: false, code });
  expect(r.body.error).to.be.a('string');
}

describe('request bodies', () => {
  let server: TestServer;
  const lines: string[] = [];
  before(async () => {
    const sink = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    server = await withLimit(8192, { logger: createLogger('info', sink) });
  });
  after(() => server?.close());

  /** Runs `send` and checks it wrote nothing to the family's change log. */
  async function writesNothing(send: () => Promise<Reply>): Promise<Reply> {
    const seq = await changes.lastSeq(server.api);
    const r = await send();
    expect(await changes.lastSeq(server.api), 'the change log did not grow').to.equal(seq);
    return r;
  }

  describe('keys that name object internals', () => {
    for (const key of [
      '__proto__',
      'constructor',
      'prototype',
      'toString',
      'valueOf',
      'hasOwnProperty',
    ]) {
      it(`refuses "${key}" at the top, in a record and inside an array item, naming the path`, async () => {
        const top = await writesNothing(() =>
          server.api.request('POST', '/people', {
            raw: `{"name":"Ana","${key}":{"admin":true}}`,
            contentType: 'application/json',
          }),
        );
        expectRefused(top, 400, 'invalid_request');
        expect(top.body.issues).to.deep.equal([
          {
            path: [key],
            message: 'is not allowed as a key (it names a built-in property of objects)',
          },
        ]);

        const inRecord = await writesNothing(() =>
          server.api.request('POST', '/trackers/chores/entries', {
            raw: `{"title":"t","data":{"${key}":{"x":1}}}`,
            contentType: 'application/json',
          }),
        );
        expectRefused(inRecord, 400, 'invalid_request');
        expect(inRecord.body.issues).to.deep.equal([
          {
            path: ['data', key],
            message: 'is not allowed as a key (it names a built-in property of objects)',
          },
        ]);

        const inItem = await writesNothing(() =>
          server.api.request('POST', '/trackers/chores/entries/batch', {
            raw: `{"items":[{"title":"a"},{"title":"b","${key}":1}]}`,
            contentType: 'application/json',
          }),
        );
        expectRefused(inItem, 400, 'invalid_request');
        expect(inItem.body.issues).to.deep.equal([
          {
            path: ['items', 1, key],
            message: 'is not allowed as a key (it names a built-in property of objects)',
          },
        ]);
        expect(inItem.body.error).to.equal(
          `items.1.${key} is not allowed as a key (it names a built-in property of objects)`,
        );
      });
    }

    it('refuses an own toString that would have broken the error message (was a 500)', async () => {
      const r = await writesNothing(() =>
        server.api.request('PATCH', '/trackers/chores', {
          raw: '{"name":{"toString":{}}}',
          contentType: 'application/json',
        }),
      );
      expectRefused(r, 400, 'invalid_request');
      expect(r.body.issues[0].path).to.deep.equal(['name', 'toString']);
    });

    it('accepts those words as values and inside longer keys', async () => {
      const r = await server.api.post('/trackers/chores/entries', {
        title: '__proto__',
        data: { notes: 'constructor prototype toString', constructorX: 1, ToString: 2 },
      });
      expect(r.status).to.equal(201);
      expect(r.body.entry.title).to.equal('__proto__');
    });
  });

  describe('nesting, keys and items caps', () => {
    // {title, data: {zzz: <arrays>}}: the body is level 1, data 2, the outer array 3.
    const entryWith = (zzz: string) => `{"title":"deep","data":{"zzz":${zzz}}}`;

    it('accepts 32 levels of nesting and refuses 33, naming the deepest place', async () => {
      const ok = await server.api.request('POST', '/trackers/chores/entries', {
        raw: entryWith(nested(30)),
        contentType: 'application/json',
      });
      expect(ok.status, ok.text).to.equal(201);
      const refused = await writesNothing(() =>
        server.api.request('POST', '/trackers/chores/entries', {
          raw: entryWith(nested(31)),
          contentType: 'application/json',
        }),
      );
      expectRefused(refused, 400, 'invalid_request');
      expect(refused.body.issues).to.deep.equal([
        { path: ['data', 'zzz', ...Array(30).fill(0)], message: 'nests deeper than 32 levels' },
      ]);
    });

    it('refuses arrays nested 5,000 and 100,000 deep with a 400, not a stack overflow', async () => {
      const big = await withLimit(1_000_000);
      try {
        for (const levels of [5_000, 100_000]) {
          const r = await big.api.request('POST', '/people', {
            raw: `{"name":${nested(levels)}}`,
            contentType: 'application/json',
          });
          expectRefused(r, 400, 'invalid_request');
          expect(r.body.issues[0].message).to.equal('nests deeper than 32 levels');
          expect(r.body.issues[0].path).to.have.length(32);
        }
        const objects = `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`;
        const r = await big.api.request('POST', '/people', {
          raw: objects,
          contentType: 'application/json',
        });
        expectRefused(r, 400, 'invalid_request');
        expect(r.body.issues[0].path).to.deep.equal(Array(32).fill('a'));
      } finally {
        await big.close();
      }
    });

    it('accepts 1,000 items in an array and refuses 1,001 before validation walks them', async () => {
      const ok = await server.api.request('POST', '/trackers/chores/entries', {
        raw: entryWith(`[${Array(1000).fill(1).join(',')}]`),
        contentType: 'application/json',
      });
      expect(ok.status, ok.text).to.equal(201);
      const refused = await writesNothing(() =>
        server.api.request('POST', '/trackers/chores/entries', {
          raw: entryWith(`[${Array(1001).fill(1).join(',')}]`),
          contentType: 'application/json',
        }),
      );
      expectRefused(refused, 400, 'invalid_request');
      expect(refused.body.issues).to.deep.equal([
        { path: ['data', 'zzz'], message: 'must have at most 1000 items' },
      ]);
    });

    it('accepts 1,000 keys in an object and refuses 1,001', async () => {
      const big = await withLimit(100_000);
      try {
        const ok = await big.api.post('/trackers/chores/entries', {
          title: 'keys',
          data: keys(1000),
        });
        expect(ok.status, ok.text).to.equal(201);
        const refused = await big.api.post('/trackers/chores/entries', {
          title: 'keys',
          data: keys(1001),
        });
        expectRefused(refused, 400, 'invalid_request');
        expect(refused.body.issues).to.deep.equal([
          { path: ['data'], message: 'must have at most 1000 keys' },
        ]);
      } finally {
        await big.close();
      }
    });

    it('refuses a string or key with an unpaired surrogate and accepts a paired one', async () => {
      const lone = await writesNothing(() =>
        server.api.request('POST', '/people', {
          raw: '{"name":"A\\ud800b"}',
          contentType: 'application/json',
        }),
      );
      expectRefused(lone, 400, 'invalid_request');
      expect(lone.body.issues).to.deep.equal([
        { path: ['name'], message: 'is not well-formed Unicode (a lone surrogate)' },
      ]);
      const loneKey = await writesNothing(() =>
        server.api.request('POST', '/trackers/chores/entries', {
          raw: '{"title":"t","data":{"\\udc00":1}}',
          contentType: 'application/json',
        }),
      );
      expect(loneKey.body.issues).to.deep.equal([
        { path: ['data', '\udc00'], message: 'is not well-formed Unicode (a lone surrogate)' },
      ]);
      const paired = await server.api.request('POST', '/people', {
        raw: '{"name":"A\\ud83c\\udfe1"}',
        contentType: 'application/json',
      });
      expect(paired.status).to.equal(201);
      expect(paired.body.person.name).to.equal('A\u{1F3E1}');
    });

    it('refuses a body that is not a JSON object, or not UTF-8', async () => {
      for (const raw of ['[{"name":"Ana"}]', '"Ana"', '12', 'null', 'true']) {
        const r = await writesNothing(() =>
          server.api.request('POST', '/people', { raw, contentType: 'application/json' }),
        );
        expectRefused(r, 400, 'invalid_request');
        expect(r.body.issues, raw).to.deep.equal([{ path: [], message: 'must be a JSON object' }]);
      }
      const latin1 = await server.api.request('POST', '/people', {
        raw: Buffer.from([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d]),
        contentType: 'application/json',
      });
      expectRefused(latin1, 400, 'invalid_request');
      expect(latin1.body.issues).to.deep.equal([{ path: [], message: 'is not valid UTF-8' }]);
      const bad = await server.api.request('POST', '/people', {
        raw: '{"name": "Ana",}',
        contentType: 'application/json',
      });
      expectRefused(bad, 400, 'invalid_request');
      expect(bad.body.error).to.match(/^The request body is not valid JSON/);
      expect(bad.body.error).to.not.include('Ana');
    });
  });

  describe('content types', () => {
    it('reads application/merge-patch+json on PATCH and applies it', async () => {
      const made = await server.api.post('/people', { name: 'Merge' });
      const seq = await changes.lastSeq(server.api);
      const r = await server.api.request('PATCH', `/people/${made.body.person.id}`, {
        raw: '{"name":"Merged"}',
        contentType: 'application/merge-patch+json',
      });
      expect(r.status, r.text).to.equal(200);
      expect(r.body.person.name).to.equal('Merged');
      const log = await changes.changesAfter(server.api, seq);
      expect(log.map((c) => c.type)).to.deep.equal(['person.updated']);
      expect(
        (await server.api.get('/people')).body.people.find((p: any) => p.id === made.body.person.id)
          .name,
      ).to.equal('Merged');
    });

    it('reads any application/*+json on POST, with a UTF-8 charset or none', async () => {
      const a = await server.api.request('POST', '/people', {
        raw: '{"name":"Vnd"}',
        contentType: 'application/vnd.api+json',
      });
      expect(a.status, a.text).to.equal(201);
      expect(a.body.person.name).to.equal('Vnd');
      const b = await server.api.request('POST', '/people', {
        raw: '{"name":"Zoë"}',
        contentType: 'application/json; charset=UTF-8',
      });
      expect(b.status, b.text).to.equal(201);
      expect(b.body.person.name).to.equal('Zoë');
    });

    it('refuses other types, other charsets and a body without a type with 415, writing nothing', async () => {
      const cases: [string | undefined, string][] = [
        ['text/plain', '{"name":"A"}'],
        ['application/x-www-form-urlencoded', 'name=A'],
        ['text/json', '{"name":"A"}'],
        ['application/json; charset=utf-16', '{"name":"A"}'],
        ['application/jsonx', '{"name":"A"}'],
        [undefined, '{"name":"A"}'],
      ];
      for (const [type, raw] of cases) {
        const r = await writesNothing(() =>
          server.api.request('POST', '/people', {
            raw: Buffer.from(raw),
            ...(type ? { contentType: type } : {}),
          }),
        );
        expect(r.status, String(type)).to.equal(415);
        expect(r.body.code).to.equal('unsupported_media_type');
      }
    });

    it('refuses a body sent to a route that takes none instead of ignoring it', async () => {
      const made = await server.api.post('/people', { name: 'Keep' });
      const path = `/people/${made.body.person.id}`;
      const fields = await writesNothing(() =>
        server.api.request('DELETE', path, { body: { force: true } }),
      );
      expectRefused(fields, 400, 'invalid_request');
      expect(fields.body.issues).to.deep.equal([
        { path: ['force'], message: 'is not a known field' },
      ]);
      const text = await writesNothing(() =>
        server.api.request('DELETE', path, { raw: 'yes', contentType: 'text/plain' }),
      );
      expectRefused(text, 415, 'unsupported_media_type');
      const scalar = await writesNothing(() =>
        server.api.request('DELETE', path, { raw: '"yes"', contentType: 'application/json' }),
      );
      expectRefused(scalar, 400, 'invalid_request');
      const empty = await server.api.request('DELETE', path, { body: {} });
      expect(empty.status).to.equal(200);
    });
  });

  describe('content encodings', () => {
    const json = '{"name":"Packed"}';

    it('reads gzip, deflate and br bodies that are what they say', async () => {
      for (const [encoding, bytes] of [
        ['gzip', gzipSync(json)],
        ['deflate', deflateSync(json)],
        ['br', brotliCompressSync(json)],
        ['identity', Buffer.from(json)],
      ] as const) {
        const r = await server.api.request('POST', '/people', {
          raw: bytes,
          contentType: 'application/json',
          headers: { 'content-encoding': encoding },
        });
        expect(r.status, `${encoding}: ${r.text}`).to.equal(201);
        expect(r.body.person.name).to.equal('Packed');
      }
    });

    it('refuses a body that is not what its Content-Encoding says with 400, writing nothing', async () => {
      for (const [encoding, bytes] of [
        ['gzip', Buffer.from(json)],
        ['deflate', gzipSync(json)],
        ['br', Buffer.from(json)],
        ['gzip', gzipSync(json).subarray(0, 15)],
      ] as const) {
        const r = await writesNothing(() =>
          server.api.request('POST', '/people', {
            raw: bytes,
            contentType: 'application/json',
            headers: { 'content-encoding': encoding },
          }),
        );
        expectRefused(r, 400, 'invalid_request');
        expect(r.body.issues[0].path, encoding).to.deep.equal(['header', 'Content-Encoding']);
      }
    });

    it('refuses an unknown or stacked encoding with 415', async () => {
      for (const encoding of ['zstd', 'compress', 'gzip, br', 'x-unknown']) {
        const r = await writesNothing(() =>
          server.api.request('POST', '/people', {
            raw: gzipSync(json),
            contentType: 'application/json',
            headers: { 'content-encoding': encoding },
          }),
        );
        expectRefused(r, 415, 'unsupported_media_type');
        expect(r.body.error).to.match(/content encoding/);
      }
    });

    it('holds the size limit on the decoded body: 8,192 decoded bytes pass, 8,193 do not', async () => {
      // {"name":"P","familiarName":"…"} padded with spaces to an exact decoded size.
      const sized = (n: number) => {
        const base = '{"name":"Sized"}';
        return base.slice(0, -1) + ' '.repeat(n - base.length) + '}';
      };
      const ok = await server.api.request('POST', '/people', {
        raw: gzipSync(sized(8192)),
        contentType: 'application/json',
        headers: { 'content-encoding': 'gzip' },
      });
      expect(ok.status, ok.text).to.equal(201);
      const bomb = gzipSync(sized(8193));
      expect(bomb.length).to.be.below(200);
      const refused = await writesNothing(() =>
        server.api.request('POST', '/people', {
          raw: bomb,
          contentType: 'application/json',
          headers: { 'content-encoding': 'gzip' },
        }),
      );
      expectRefused(refused, 413, 'payload_too_large');
      const inflated = gzipSync(sized(5_000_000));
      expect(inflated.length).to.be.below(8192);
      const huge = await writesNothing(() =>
        server.api.request('POST', '/people', {
          raw: inflated,
          contentType: 'application/json',
          headers: { 'content-encoding': 'gzip' },
        }),
      );
      expectRefused(huge, 413, 'payload_too_large');
    });

    it('holds the size limit on the wire bytes too, even when they decode to little', async () => {
      // Empty gzip members decode to nothing: 20 bytes on the wire each.
      const padded = (members: number) =>
        Buffer.concat([
          gzipSync('{"name":"Wire"}'),
          ...Array.from({ length: members }, () => gzipSync('')),
        ]);
      expect(padded(350).length).to.be.below(8192);
      expect(padded(450).length).to.be.above(8192);
      const ok = await sendChunked(server, '/people', [padded(350)], {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      });
      expect(ok.status).to.equal(201);
      const seq = await changes.lastSeq(server.api);
      const refused = await sendChunked(server, '/people', [padded(450)], {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      });
      expect(refused.status).to.equal(413);
      expect(refused.body.code).to.equal('payload_too_large');
      expect(await changes.lastSeq(server.api)).to.equal(seq);
    });

    it('counts a chunked body without Content-Length against the limit', async () => {
      // '{"name":"Chunk"' is 15 bytes and '}' one: 8,176 spaces make 8,192 bytes.
      const ok = await sendChunked(
        server,
        '/people',
        [Buffer.from('{"name":"Chunk"'), Buffer.from(`${' '.repeat(8176)}}`)],
        { 'content-type': 'application/json' },
      );
      expect(ok.status).to.equal(201);
      const refused = await sendChunked(
        server,
        '/people',
        [Buffer.from('{"name":"Chunk"'), Buffer.from(`${' '.repeat(8177)}}`)],
        { 'content-type': 'application/json' },
      );
      expect(refused.status).to.equal(413);
    });

    it('fingerprints the decoded text for Idempotency-Key, so a gzip retry replays', async () => {
      const first = await server.api.request('POST', '/people', {
        raw: '{"name":"Once"}',
        contentType: 'application/json',
        headers: { 'idempotency-key': 'body-gzip-1' },
      });
      expect(first.status).to.equal(201);
      const again = await server.api.request('POST', '/people', {
        raw: gzipSync('{"name":"Once"}'),
        contentType: 'application/json',
        headers: { 'idempotency-key': 'body-gzip-1', 'content-encoding': 'gzip' },
      });
      expect(again.status).to.equal(201);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(again.body.person.id).to.equal(first.body.person.id);
    });
  });

  describe('the log', () => {
    it('never holds a body, whatever was wrong with it', async () => {
      const marker = 'BODY-MARKER-7f3a';
      const bodies: [string, Buffer | string, Record<string, string>][] = [
        ['application/json', `{"name":"${marker}","__proto__":{"x":"${marker}"}}`, {}],
        ['application/json', `{"name":"${marker}",`, {}],
        ['application/json', `{"name":${nested(100)},"x":"${marker}"}`, {}],
        ['application/json', `{"name":"${marker}"}`, { 'content-encoding': 'gzip' }],
        ['application/json', `{"name":"${marker}"}`, { 'content-encoding': 'zstd' }],
        ['text/plain', marker, {}],
      ];
      for (const [type, raw, headers] of bodies) {
        const r = await server.api.request('POST', '/people', { raw, contentType: type, headers });
        expect(r.status).to.be.within(400, 499);
        expect(r.text).to.not.include(marker);
      }
      expect(lines.length).to.be.above(5);
      expect(lines.join('\n')).to.not.include(marker);
    });
  });
});
