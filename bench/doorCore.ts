/**
 * What the door core adds to a request, measured in-process (docs/performance.md, "The door
 * core"): finding the request's door among the daemon's six by its path, resolving a key the
 * one key cache holds, and classifying an error and writing it in a door's form (REST's JSON,
 * CalDAV's DAV:error XML). `npm run build && node dist/bench/doorCore.js`
 */
import { doorFinder, type Door } from '../src/door/door.js';
import { Credentials } from '../src/door/credentials.js';
import { answerOf } from '../src/door/errors.js';
import { renderJson } from '../src/door/jsonForm.js';
import { renderDav } from '../src/caldav/errors.js';
import { NotFound } from '../src/domain/shared/errors.js';
import { hashSecret } from '../src/family/secrets.js';
import type { ApiKeyRecord, FamilyInfo } from '../src/store/types.js';
import type Koa from 'koa';

let sink = 0;
function nsPer(fn: () => number, n = 1_000_000): number {
  for (let i = 0; i < n / 10; i++) sink += fn();
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) sink += fn();
  return Number(process.hrtime.bigint() - start) / n;
}

/** The daemon's doors by their prefixes (as src/daemon/doors.ts composes them). */
const door = (name: string, prefixes: string[], claims?: Door['claims']): Door =>
  ({ name, prefixes, ...(claims ? { claims } : {}) }) as unknown as Door;
const DOORS = [
  door('rest', ['/api/', '/healthz', '/metrics']),
  door('public', ['/p/', '/share/', '/display/']),
  door('stream', [
    '/api/v1/families/:familySlug/changes/stream',
    '/api/v1/families/:familySlug/changes/stream-tickets',
  ]),
  door('oauth', ['/oauth/', '/.well-known/oauth-authorization-server']),
  door('mcp', ['/mcp']),
  door('caldav', ['/dav/', '/.well-known/caldav'], (m, p) => p === '/' && m === 'PROPFIND'),
];

const family: FamilyInfo = {
  id: 'fam_1',
  slug: 'home',
  name: 'Home',
  timezone: 'Europe/Berlin',
} as FamilyInfo;
const secret = '0123456789abcdefghijABCDEFGHIJkl';
const key: ApiKeyRecord = {
  id: 'AbCdEfGhIjKl',
  familyId: family.id,
  name: 'bench',
  scopes: ['read', 'write', 'admin'],
  personId: null,
  secretHash: hashSecret(secret),
  createdAt: '2026-11-27T00:00:00.000Z',
  revokedAt: null,
  lastUsedAt: null,
};
const doorOf = doorFinder(DOORS);
const credentials = new Credentials({
  getKey: (id) => (id === key.id ? key : undefined),
  getFamily: (id) => (id === family.id ? family : undefined),
  getFamilyBySlug: (slug) => (slug === family.slug ? family : undefined),
  keysVersion: () => 1,
});
const presented = `hk_${key.id}_${secret}`;

/** Enough of a Koa context for a door's form to write an answer into. */
function fakeContext(): Koa.Context {
  const ctx = {
    status: 200,
    type: '',
    body: undefined as unknown,
    set: () => undefined,
  };
  return ctx as unknown as Koa.Context;
}
const ctx = fakeContext();
const missing = new NotFound('No collection nope in this family');

const rows: [string, number][] = [
  [
    'find the door of a REST path',
    nsPer(() => doorOf('GET', '/api/v1/families/home/trackers/x/entries').name.length),
  ],
  [
    'find the door of a CalDAV path',
    nsPer(() => doorOf('PROPFIND', '/dav/home/calendar/').name.length),
  ],
  [
    'resolve a cached API key to a caller',
    nsPer(() => credentials.resolve({ kind: 'apiKey', text: presented })?.keyId.length ?? 0),
  ],
  [
    'classify a refusal and write it as JSON',
    nsPer(() => {
      renderJson(answerOf(missing)!, ctx);
      return ctx.status;
    }, 200_000),
  ],
  [
    'classify a refusal and write it as DAV:error',
    nsPer(() => {
      renderDav(answerOf(missing)!, ctx);
      return ctx.status;
    }, 200_000),
  ],
];
for (const [what, ns] of rows) console.log(`${what.padEnd(46)} ${(ns / 1000).toFixed(2)} µs`);
if (sink === 42) console.log('');
