/**
 * A property test of every route that takes a body: random JSON (deep, wide, odd keys, odd
 * Unicode), bodies built from the route's published request schema and then broken, and raw
 * hostile text, sent through the real server. Every answer must be a 2xx, or a 4xx in the error
 * shape that changed nothing (the family's change log did not grow) — never a 5xx (the routes
 * not implemented yet may answer their documented 501 to a body they accept).
 *
 * The routes come from the served OpenAPI document; path parameters are filled with ids of
 * things made in `before` or with random ids. The PRNG is seeded: the seed is printed, and
 * `BODY_FUZZ_SEED=<seed>` replays a run (`BODY_FUZZ_CASES` changes how many cases run).
 */
import { expect } from 'chai';
import { gzipSync } from 'node:zlib';
import { Writable } from 'node:stream';
import { createLogger } from '../../src/logger.js';
import { startTestServer, type TestServer, type Reply } from '../helpers/server.js';
import * as changes from '../helpers/changes.js';

// ---- seeded randomness (sfc32) -------------------------------------------------------------

function prng(seed: number): () => number {
  let a = 0x9e3779b9,
    b = 0x243f6a88,
    c = 0xb7e15162,
    d = seed >>> 0;
  const next = () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    const t = (a + b + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) + t;
    return t / 4294967296;
  };
  for (let i = 0; i < 16; i++) next();
  return next;
}

class Rand {
  constructor(readonly next: () => number) {}
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)];
  }
}

// ---- JSON values that can hold any key (even __proto__) and serialize themselves ------------

class Obj {
  constructor(readonly entries: [string, J][]) {}
}
type J = null | boolean | number | string | J[] | Obj;

function serialize(v: J): string {
  if (v instanceof Obj)
    return `{${v.entries.map(([k, x]) => `${JSON.stringify(k)}:${serialize(x)}`).join(',')}}`;
  if (Array.isArray(v)) return `[${v.map(serialize).join(',')}]`;
  return JSON.stringify(v) ?? 'null';
}

const ODD_STRINGS = [
  '',
  ' ',
  'a',
  'Zoë',
  '\u{1F3E1}',
  'e\u0301',
  '\u202eevil',
  '\u200b',
  '\u0000',
  '\ufeff',
  '\ud800',
  '\udfff x',
  '\uffff',
  '\u0007\u001b[31m',
  '<script>alert(1)</script>',
  "'; DROP TABLE x; --",
  '../../etc/passwd',
  '%00',
  '\\',
  '"',
  '2026-12-01',
  '2026-02-29',
  '0000-00-00',
  '15:30',
  '3:30 PM',
  '25:61',
  '12',
  '-1',
  '1e309',
  'true',
  'null',
  'ent_01kaq5m2v8x3c4d5e6f7',
  'person_01kaq5m2v8x3c4d5e6f7',
  'weekly',
  'daily',
  'select',
  'date',
  'adult',
  'child',
  'going',
  'maybe',
  'email',
  'push',
  'sms',
  'calendar',
  'active',
  'done',
  'archived',
  'occurrence',
  'series',
];
const ODD_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '',
  ' ',
  '0',
  '-1',
  '\u{1F3E1}',
  '\ud800',
  'a.b',
  'a/b',
  '$where',
  'x'.repeat(300),
  'title',
  'name',
  'data',
  'items',
  'fields',
  'options',
  'date',
];
const ODD_NUMBERS = [
  0,
  -0,
  1,
  -1,
  0.5,
  7,
  50,
  51,
  100,
  101,
  1000,
  2 ** 31,
  2 ** 53,
  -(2 ** 53),
  1e308,
  -1e308,
  5e-324,
  123456789.123,
];

function randomString(r: Rand): string {
  if (r.chance(0.6)) return r.pick(ODD_STRINGS);
  if (r.chance(0.05)) return r.pick(ODD_STRINGS).repeat(r.int(100, 1000));
  const n = r.int(0, 40);
  let s = '';
  for (let i = 0; i < n; i++)
    s += String.fromCodePoint(
      r.chance(0.7)
        ? r.int(0x20, 0x7e)
        : r.pick([
            r.int(0, 0x1f),
            r.int(0x80, 0xd7ff),
            r.int(0xd800, 0xdfff),
            r.int(0xe000, 0xffff),
            r.int(0x10000, 0x10ffff),
          ]),
    );
  return s;
}

function randomScalar(r: Rand): J {
  switch (r.int(0, 5)) {
    case 0:
      return null;
    case 1:
      return r.chance(0.5);
    case 2:
      return r.pick(ODD_NUMBERS);
    case 3:
      return r.int(-10, 10);
    default:
      return randomString(r);
  }
}

function randomValue(r: Rand, depth = 0, maxDepth = 6): J {
  if (depth >= maxDepth || r.chance(0.45)) return randomScalar(r);
  if (r.chance(0.5))
    return Array.from({ length: r.int(0, 6) }, () => randomValue(r, depth + 1, maxDepth));
  return new Obj(
    Array.from(
      { length: r.int(0, 6) },
      () =>
        [
          r.chance(0.3) ? r.pick(ODD_KEYS) : randomString(r),
          randomValue(r, depth + 1, maxDepth),
        ] as [string, J],
    ),
  );
}

/** A value around the caps: deep chains, wide arrays and objects near 1,000. */
function extremeValue(r: Rand): J {
  switch (r.int(0, 3)) {
    case 0: {
      let v: J = randomScalar(r);
      for (let i = r.int(28, 40); i > 0; i--) v = r.chance(0.5) ? [v] : new Obj([['k', v]]);
      return v;
    }
    case 1:
      return Array.from({ length: r.pick([999, 1000, 1001, 1500]) }, () =>
        r.chance(0.9) ? r.int(0, 9) : r.pick(ODD_STRINGS),
      );
    case 2:
      return new Obj(
        Array.from({ length: r.pick([999, 1000, 1001]) }, (_, i) => [`k${i}`, i] as [string, J]),
      );
    default:
      return new Obj([
        [r.pick(['__proto__', 'constructor', 'prototype']), new Obj([['polluted', true]])],
      ]);
  }
}

function toJ(v: unknown): J {
  if (Array.isArray(v)) return v.map(toJ);
  if (v && typeof v === 'object')
    return new Obj(Object.entries(v).map(([k, x]) => [k, toJ(x)] as [string, J]));
  return v as J;
}

// ---- bodies built from the published request schema ----------------------------------------

type Schema = Record<string, any>;

function fromSchema(r: Rand, s: Schema | undefined, depth = 0): J {
  if (!s || depth > 8) return randomScalar(r);
  if (s.const !== undefined) return s.const;
  if (s.enum) return r.pick(s.enum);
  if (s.anyOf) return fromSchema(r, r.pick(s.anyOf), depth + 1);
  if (s.examples && r.chance(0.5)) return toJ(r.pick(s.examples));
  const type = Array.isArray(s.type) ? r.pick(s.type) : s.type;
  switch (type) {
    case 'object': {
      const entries: [string, J][] = [];
      for (const [k, sub] of Object.entries<Schema>(s.properties ?? {})) {
        if ((s.required ?? []).includes(k) || r.chance(0.25))
          entries.push([k, fromSchema(r, sub, depth + 1)]);
      }
      if (!s.properties && r.chance(0.7)) {
        for (let i = r.int(0, 4); i > 0; i--)
          entries.push([
            r.pick(['aisle', 'notes', 'quantity', 'due', 'assignee', 'repeats', 'x']),
            randomScalar(r),
          ]);
      }
      return new Obj(entries);
    }
    case 'array': {
      const lo = s.minItems ?? 0;
      const hi = Math.min(s.maxItems ?? lo + 4, lo + 6);
      return Array.from({ length: r.int(lo, hi) }, () => fromSchema(r, s.items, depth + 1));
    }
    case 'string': {
      if (s.format === 'date')
        return `2026-${String(r.int(1, 12)).padStart(2, '0')}-${String(r.int(1, 28)).padStart(2, '0')}`;
      const lo = s.minLength ?? 0;
      const hi = s.maxLength ?? 20;
      return r.chance(0.8)
        ? 'x'.repeat(r.int(Math.max(lo, 1), Math.min(hi, 20)))
        : 'x'.repeat(r.pick([lo, hi, hi + 1]));
    }
    case 'integer':
      return r.int(s.minimum ?? 0, Math.min(s.maximum ?? 100, (s.minimum ?? 0) + 100));
    case 'number':
      return r.int(s.minimum ?? 0, 100) + 0.5;
    case 'boolean':
      return r.chance(0.5);
    default:
      return randomValue(r, depth, depth + 2);
  }
}

/** Replaces one place of the value with something random (or odd), or adds an odd key. */
function mutate(r: Rand, v: J): J {
  if (r.chance(0.25)) return r.chance(0.7) ? randomValue(r) : extremeValue(r);
  if (v instanceof Obj) {
    const entries = [...v.entries];
    const roll = r.int(0, 3);
    if (roll === 0 || !entries.length)
      entries.push([r.pick(ODD_KEYS), r.chance(0.8) ? randomValue(r, 0, 3) : extremeValue(r)]);
    else if (roll === 1) entries.splice(r.int(0, entries.length - 1), 1);
    else {
      const i = r.int(0, entries.length - 1);
      entries[i] = [entries[i][0], mutate(r, entries[i][1])];
    }
    return new Obj(entries);
  }
  if (Array.isArray(v) && v.length) {
    const copy = [...v];
    const i = r.int(0, copy.length - 1);
    copy[i] = mutate(r, copy[i]);
    return copy;
  }
  return randomScalar(r);
}

// ---- the requests --------------------------------------------------------------------------

interface Op {
  method: string;
  template: string;
  schema: Schema | undefined;
  pending: boolean;
}

/** The document with every `#/components/schemas/…` reference replaced by the schema it names. */
function derefSchemas(doc: any): any {
  const named = doc.components?.schemas ?? {};
  const walk = (v: any, depth: number): any => {
    if (Array.isArray(v)) return v.map((x) => walk(x, depth));
    if (!v || typeof v !== 'object') return v;
    if (typeof v.$ref === 'string' && v.$ref.startsWith('#/components/schemas/') && depth < 20) {
      return walk(named[v.$ref.slice('#/components/schemas/'.length)], depth + 1);
    }
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, depth)]));
  };
  return { ...doc, paths: walk(doc.paths, 0) };
}
interface Case {
  method: string;
  path: string;
  body: Buffer | string;
  headers: Record<string, string>;
  label: string;
}

function makeBody(r: Rand, op: Op): { text: string | Buffer; label: string } {
  const roll = r.next();
  if (roll < 0.45 && op.schema) {
    const v = fromSchema(r, op.schema);
    return r.chance(0.5)
      ? { text: serialize(v), label: 'schema' }
      : { text: serialize(mutate(r, v)), label: 'schema, mutated' };
  }
  if (roll < 0.75)
    return {
      text: serialize(
        r.chance(0.8)
          ? new Obj(
              Array.from(
                { length: r.int(0, 5) },
                () => [r.pick(ODD_KEYS), randomValue(r)] as [string, J],
              ),
            )
          : randomValue(r),
      ),
      label: 'random',
    };
  if (roll < 0.85)
    return { text: serialize(new Obj([[r.pick(ODD_KEYS), extremeValue(r)]])), label: 'extreme' };
  // Raw text that is not (quite) JSON.
  const valid = serialize(op.schema ? fromSchema(r, op.schema) : randomValue(r));
  switch (r.int(0, 6)) {
    case 0:
      return { text: valid.slice(0, r.int(0, Math.max(0, valid.length - 1))), label: 'truncated' };
    case 1:
      return { text: `{"a":${'['.repeat(r.pick([100, 5000, 60_000]))}`, label: 'unclosed nesting' };
    case 2: {
      const n = r.pick([33, 5000, 100_000]);
      return { text: `{"a":${'['.repeat(n)}${']'.repeat(n)}}`, label: 'deep nesting' };
    }
    case 3:
      return {
        text: Buffer.concat([
          Buffer.from('{"title":"'),
          Buffer.from([0xff, 0xfe, 0xc3, 0x28]),
          Buffer.from('"}'),
        ]),
        label: 'invalid UTF-8',
      };
    case 4:
      return { text: `\ufeff${valid}`, label: 'BOM' };
    case 5:
      return { text: `${valid}${valid}`, label: 'trailing data' };
    default:
      return { text: valid.replace(/"[^"]*"/, '"\\ud800"'), label: 'escaped lone surrogate' };
  }
}

function makeHeaders(
  r: Rand,
  body: string | Buffer,
): { headers: Record<string, string>; body: string | Buffer; label: string } {
  const headers: Record<string, string> = {};
  const type = r.next();
  if (type < 0.8) headers['content-type'] = 'application/json';
  else if (type < 0.88)
    headers['content-type'] = r.pick([
      'application/merge-patch+json',
      'application/vnd.api+json',
      'application/json; charset=utf-8',
    ]);
  else if (type < 0.95)
    headers['content-type'] = r.pick([
      'text/plain',
      'application/json; charset=utf-16',
      'multipart/form-data; boundary=x',
      'application/x-www-form-urlencoded',
    ]);
  const enc = r.next();
  if (enc < 0.05)
    return {
      headers: { ...headers, 'content-encoding': 'gzip' },
      body: gzipSync(body),
      label: headers['content-type'] ?? 'no type',
    };
  if (enc < 0.07)
    return {
      headers: {
        ...headers,
        'content-encoding': r.pick(['gzip', 'br', 'deflate', 'zstd', 'gzip, gzip']),
      },
      body,
      label: headers['content-type'] ?? 'no type',
    };
  return { headers, body, label: headers['content-type'] ?? 'no type' };
}

describe('every route with a body, under random bodies', () => {
  const seed = process.env.BODY_FUZZ_SEED
    ? Number(process.env.BODY_FUZZ_SEED)
    : Math.floor(Math.random() * 2 ** 32);
  const cases = Number(process.env.BODY_FUZZ_CASES ?? 800);
  let server: TestServer;
  const ops: Op[] = [];
  let codes: string[] = [];
  const ids: Record<string, string[]> = {};
  const errorLines: string[] = [];

  before(async () => {
    process.stdout.write(
      `      body property test seed: ${seed} (replay with BODY_FUZZ_SEED=${seed})\n`,
    );
    // Errors the daemon logs (never bodies) are shown with a failing case.
    const sink = new Writable({
      write(chunk, _enc, cb) {
        errorLines.push(String(chunk));
        cb();
      },
    });
    server = await startTestServer({ logger: createLogger('error', sink) });
    const api = server.api;
    // Things for path parameters to point at.
    const tracker = await api.post('/trackers', {
      name: 'Fuzz',
      fields: [{ key: 'n', label: 'N', type: 'number' }],
    });
    const entry = await api.post('/trackers/chores/entries', { title: 'Chore' });
    const person = await api.post('/people', { name: 'Pat' });
    const event = await api.post('/calendar/events', {
      title: 'Swim',
      date: '2026-12-01',
      repeatFrequency: 'weekly',
    });
    const plan = await api.post('/plans', { title: 'Trip' });
    const planId = plan.body.planId ?? plan.body.plan?.id;
    const note = await api.post(`/plans/${planId}/notes`, { body: 'Bring towels' });
    const poll = await api.post(`/plans/${planId}/polls`, {
      question: 'When?',
      options: [{ label: 'Sat' }, { label: 'Sun' }],
    });
    const share = await api.post('/calendar/shares', { name: 'Grandma' });
    for (const r of [tracker, entry, person, event, plan, note, poll])
      expect(r.status, r.text).to.equal(201);
    const find = (body: unknown, prefix: string): string[] =>
      [...JSON.stringify(body).matchAll(new RegExp(`"(${prefix}_[0-9a-z]{20})"`, 'g'))].map(
        (m) => m[1],
      );
    Object.assign(ids, {
      familySlug: Array(19).fill('home').concat('other'),
      collectionKey: [
        'chores',
        'groceries',
        'calendar',
        tracker.body.tracker?.key ?? 'fuzz',
        'nope',
      ],
      entryId: find(entry.body, 'ent'),
      eventId: find(event.body, 'ent'),
      personId: find(person.body, 'person'),
      planId: [planId],
      noteId: find(note.body, 'note'),
      pollId: find(poll.body, 'poll'),
      optionId: find(poll.body, 'option'),
      shareId: find(share.body, 'share'),
    });
    const doc = derefSchemas((await server.http.get('/api/v1/openapi.json')).body);
    codes = doc.components.schemas.Error.properties.code.enum;
    for (const [template, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        if (method === 'get' || (Array.isArray(op.security) && op.security.length === 0)) continue;
        ops.push({
          method: method.toUpperCase(),
          template,
          schema: op.requestBody?.content?.['application/json']?.schema,
          pending: '501' in op.responses,
        });
      }
    }
    expect(ops.length).to.be.above(30);
  });
  after(() => server?.close());

  it(`answers 2xx, or a 4xx in the error shape that changed nothing — never a 5xx`, async function () {
    this.timeout(60_000);
    const r = new Rand(prng(seed));
    const fillParam = (name: string): string => {
      const known = ids[name] ?? [];
      if (known.length && r.chance(0.8)) return r.pick(known);
      // A URL cannot carry an unpaired surrogate, so those become U+FFFD here.
      const text = r.chance(0.5)
        ? `${r.pick(['ent', 'person', 'plan', 'note', 'poll', 'option', 'share', 'x'])}_01kaq5m2v8x3c4d5e6f7`
        : randomString(r).slice(0, 300);
      return encodeURIComponent(text.replace(/[\uD800-\uDFFF]/gu, '\ufffd') || 'z');
    };
    const lastSeqAfter = async (after: number): Promise<number> => {
      for (;;) {
        const next = (await server.api.get(`/changes?after=${after}&limit=500`)).body
          .nextAfter as number;
        if (next === after) return after;
        after = next;
      }
    };
    let seq = await changes.lastSeq(server.api);
    const seen = { ok: 0, refused: 0, pending: 0 };
    const started = Date.now();
    for (let n = 0; n < cases; n++) {
      // Deletes are picked less often, so the things path parameters point at last longer.
      let op = r.pick(ops);
      if (op.method === 'DELETE' && r.chance(0.7)) op = r.pick(ops);
      const path = op.template.replace(/\{([A-Za-z]+)\}/g, (_m, name: string) => fillParam(name));
      const made = makeBody(r, op);
      const sent = makeHeaders(r, made.text);
      const c: Case = {
        method: op.method,
        path,
        body: sent.body,
        headers: sent.headers,
        label: `${made.label}, ${sent.label}`,
      };
      let reply: Reply;
      try {
        reply = await server.http.request(c.method, c.path, {
          raw: c.body,
          headers: { ...c.headers, 'x-api-key': server.apiKey },
        });
      } catch (err) {
        throw new Error(
          `case ${n} (seed ${seed}): ${c.method} ${c.path} [${c.label}] failed to answer: ${(err as Error).message}`,
          { cause: err },
        );
      }
      const logged = () =>
        errorLines.find((l) => l.includes(reply.headers.get('x-request-id') ?? '-')) ?? '';
      const where = () =>
        `case ${n} (seed ${seed}): ${c.method} ${c.path} [${c.label}] ${String(c.body).slice(0, 300)}\n→ ${reply.status} ${reply.text.slice(0, 500)}\n${logged().slice(0, 2000)}`;
      if (reply.status >= 200 && reply.status < 300) {
        seen.ok++;
        seq = await lastSeqAfter(seq);
        continue;
      }
      if (op.pending && reply.status === 501) {
        expect(reply.body.code, where()).to.equal('not_implemented');
        seen.pending++;
      } else {
        expect(reply.status, where()).to.be.within(400, 499);
        seen.refused++;
      }
      expect(reply.headers.get('content-type') ?? '', where()).to.match(/^application\/json/);
      const b = reply.body;
      expect(b.ok, where()).to.equal(false);
      expect(b.error, where()).to.be.a('string').and.not.equal('');
      expect(codes, where()).to.include(b.code);
      if (b.issues !== undefined) {
        expect(b.issues, where()).to.be.an('array').with.length.within(1, 20);
        for (const issue of b.issues) {
          expect(issue.path, where()).to.be.an('array');
          for (const p of issue.path) expect(typeof p, where()).to.be.oneOf(['string', 'number']);
          expect(issue.message, where()).to.be.a('string');
        }
      }
      if (b.issueCount !== undefined) expect(b.issueCount, where()).to.be.above(20);
      const grown = (await server.api.get(`/changes?after=${seq}&limit=1`)).body.changes;
      expect(grown, `the change log grew on a refused write: ${where()}`).to.deep.equal([]);
    }
    process.stdout.write(
      `      ${cases} cases in ${Date.now() - started} ms: ${seen.ok} accepted, ${seen.refused} refused, ${seen.pending} not implemented\n`,
    );
    expect(seen.ok, 'some random bodies were good enough to be accepted').to.be.above(5);
    expect(seen.refused).to.be.above(cases / 2);
  });
});
