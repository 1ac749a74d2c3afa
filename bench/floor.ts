/**
 * The floor: the least a Koa service can do for the same requests. Bare Koa + @koa/router on
 * the daemon's paths, behind the same key check as the daemon (parse `x-api-key`, SHA-256 of
 * the secret, constant-time compare against the stored hash, the key's family must be the
 * path's), answering JSON bodies of the same size as the daemon's replies. Bodies are objects
 * the runner captured from the daemon's own answers; Koa serializes them on every request,
 * as the daemon does. POST bodies are parsed (koa-bodyparser, as in the daemon) and answered
 * with 201, without storing anything.
 *
 * Messages: `{type: 'keys', keys: [{keyId, secretHash, slug}]}` adds keys;
 * `{type: 'body', name, body}` sets the answer of a route, where `name` is
 * `<route>?<querystring>` for one exact query or `<route>` for any other.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, timingSafeEqual } from 'node:crypto';
import Koa from 'koa';
import Router from '@koa/router';
import bodyParser from 'koa-bodyparser';
import { serveChild } from './child.js';

const KEY_FORMAT = /^hk_([0-9A-Za-z]{12})_([0-9A-Za-z]{32})$/;
const keys = new Map<string, { hash: Buffer; slug: string }>();
const bodies = new Map<string, unknown>();
const DUMMY = Buffer.alloc(32);

const checkKey: Koa.Middleware = async (ctx, next) => {
  const presented = ctx.get('x-api-key');
  const m = KEY_FORMAT.exec(presented);
  if (!m) {
    ctx.status = 401;
    ctx.body = { ok: false, error: 'The API key is not valid', code: 'unauthorized' };
    return;
  }
  const record = keys.get(m[1]);
  const actual = createHash('sha256').update(m[2]).digest();
  const expected = record ? record.hash : DUMMY;
  if (!record || !timingSafeEqual(expected, actual)) {
    ctx.status = 401;
    ctx.body = { ok: false, error: 'The API key is not valid', code: 'unauthorized' };
    return;
  }
  if (record.slug !== ctx.params.familySlug) {
    ctx.status = 403;
    ctx.body = {
      ok: false,
      error: 'This API key does not belong to that family',
      code: 'forbidden',
    };
    return;
  }
  await next();
};

function answer(route: string, status: number): Koa.Middleware {
  return (ctx) => {
    const body = bodies.get(`${route}?${ctx.querystring}`) ?? bodies.get(route);
    if (body === undefined) {
      ctx.status = 404;
      ctx.body = { ok: false, error: `no body set for ${route}`, code: 'not_found' };
      return;
    }
    ctx.status = status;
    ctx.body = body;
  };
}

const app = new Koa();
app.silent = true;
const router = new Router();
const entries = '/api/v1/families/:familySlug/trackers/:collectionKey/entries';
router.get(entries, checkKey, answer('entries:get', 200));
router.post(
  entries,
  checkKey,
  bodyParser({ enableTypes: ['json'], strict: true }),
  answer('entries:post', 201),
);
router.get('/api/v1/families/:familySlug/calendar/events', checkKey, answer('calendar:get', 200));
router.get('/api/v1/families/:familySlug/context', checkKey, answer('context:get', 200));
app.use(router.routes());
app.use(router.allowedMethods());

const handle = app.callback();
// `void`: Koa's handler settles every request itself (ctx.onerror answers a rejection).
const server = createServer((req, res) => {
  void handle(req, res);
});
server.keepAliveTimeout = 5_000;
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

serveChild({
  stop: () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  on: (m) => {
    if (m.type === 'keys') {
      for (const k of m.keys as { keyId: string; secretHash: string; slug: string }[]) {
        keys.set(k.keyId, { hash: Buffer.from(k.secretHash, 'hex'), slug: k.slug });
      }
    } else if (m.type === 'body') {
      bodies.set(m.name as string, m.body);
    }
  },
});
process.send!({ type: 'ready', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
