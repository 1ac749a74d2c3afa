/**
 * The length caps we added where the contract names none (docs/decisions.md), each proved on
 * both sides of its boundary through the real server. Text is counted in code points, so the
 * strings here are made of 'é' (two UTF-8 bytes) and, where noted, emoji (two UTF-16 units).
 */
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import * as changes from '../helpers/changes.js';

const text = (n: number, ch = 'é') => ch.repeat(n);
const emoji = (n: number) => text(n, '\u{1F3E1}');

interface Cap {
  name: string;
  max: number;
  method: 'get' | 'post';
  /** Path under the family, `{plan}` replaced by a plan id made in `before`. */
  path: (n: number) => string;
  body?: (n: number) => unknown;
  at: (string | number)[];
}

let uniq = 0;
const u = () => `u${++uniq}`;

const CAPS: Cap[] = [
  {
    name: 'collection name',
    max: 100,
    method: 'post',
    path: () => '/trackers',
    body: (n) => ({ name: `${n}${text(n - String(n).length)}` }),
    at: ['name'],
  },
  {
    name: 'collection description',
    max: 500,
    method: 'post',
    path: () => '/trackers',
    body: (n) => ({ name: u(), description: text(n) }),
    at: ['description'],
  },
  {
    name: 'fields per collection',
    max: 100,
    method: 'post',
    path: () => '/trackers',
    body: (n) => ({
      name: u(),
      fields: Array.from({ length: n }, (_, i) => ({ key: `f${i}`, label: 'F' })),
    }),
    at: ['fields'],
  },
  {
    name: 'field key',
    max: 64,
    method: 'post',
    path: () => '/trackers',
    body: (n) => ({ name: u(), fields: [{ key: 'k'.repeat(n), label: 'K' }] }),
    at: ['fields', 0, 'key'],
  },
  {
    name: 'field label',
    max: 100,
    method: 'post',
    path: () => '/trackers',
    body: (n) => ({ name: u(), fields: [{ key: 'k', label: text(n) }] }),
    at: ['fields', 0, 'label'],
  },
  {
    name: 'select options per field',
    max: 100,
    method: 'post',
    path: () => '/trackers',
    body: (n) => ({
      name: u(),
      fields: [
        {
          key: 'k',
          label: 'K',
          type: 'select',
          options: Array.from({ length: n }, (_, i) => `o${i}`),
        },
      ],
    }),
    at: ['fields', 0, 'options'],
  },
  {
    name: 'select option text',
    max: 100,
    method: 'post',
    path: () => '/trackers',
    body: (n) => ({
      name: u(),
      fields: [{ key: 'k', label: 'K', type: 'select', options: [emoji(n)] }],
    }),
    at: ['fields', 0, 'options', 0],
  },
  {
    name: 'person name',
    max: 200,
    method: 'post',
    path: () => '/people',
    body: (n) => ({ name: emoji(n) }),
    at: ['name'],
  },
  {
    name: 'person familiarName',
    max: 200,
    method: 'post',
    path: () => '/people',
    body: (n) => ({ name: 'P', familiarName: text(n) }),
    at: ['familiarName'],
  },
  {
    name: 'entries query',
    max: 200,
    method: 'get',
    path: (n) => `/trackers/chores/entries?query=${encodeURIComponent(text(n))}`,
    at: ['query', 'query'],
  },
  {
    name: 'calendar query',
    max: 200,
    method: 'get',
    path: (n) => `/calendar/events?query=${encodeURIComponent(text(n))}`,
    at: ['query', 'query'],
  },
  {
    name: 'event title',
    max: 500,
    method: 'post',
    path: () => '/calendar/events',
    body: (n) => ({ title: emoji(n), date: '2026-12-01' }),
    at: ['title'],
  },
  {
    name: 'event where',
    max: 500,
    method: 'post',
    path: () => '/calendar/events',
    body: (n) => ({ title: 'W', date: '2026-12-01', where: text(n) }),
    at: ['where'],
  },
  {
    name: 'event note',
    max: 20_000,
    method: 'post',
    path: () => '/calendar/events',
    body: (n) => ({ title: 'N', date: '2026-12-01', note: text(n) }),
    at: ['note'],
  },
  {
    name: 'event assignee',
    max: 200,
    method: 'post',
    path: () => '/calendar/events',
    body: (n) => ({ title: 'A', date: '2026-12-01', assignee: text(n) }),
    at: ['assignee'],
  },
  {
    name: 'plan title',
    max: 200,
    method: 'post',
    path: () => '/plans',
    body: (n) => ({ title: emoji(n) }),
    at: ['title'],
  },
  {
    name: 'plan prose',
    max: 20_000,
    method: 'post',
    path: () => '/plans',
    body: (n) => ({ title: 'P', prose: text(n) }),
    at: ['prose'],
  },
  {
    name: 'plan note',
    max: 20_000,
    method: 'post',
    path: () => '/plans/{plan}/notes',
    body: (n) => ({ body: text(n) }),
    at: ['body'],
  },
  {
    name: 'poll question',
    max: 500,
    method: 'post',
    path: () => '/plans/{plan}/polls',
    body: (n) => ({ question: text(n), options: [{ label: 'a' }, { label: 'b' }] }),
    at: ['question'],
  },
  {
    name: 'poll option label',
    max: 200,
    method: 'post',
    path: () => '/plans/{plan}/polls',
    body: (n) => ({ question: 'Q', options: [{ label: emoji(n) }, { label: 'b' }] }),
    at: ['options', 0, 'label'],
  },
];

describe('length caps beyond the contract, on both sides', () => {
  let server: TestServer;
  let plan = '';
  before(async () => {
    server = await startTestServer();
    plan = (await server.api.post('/plans', { title: 'Caps' })).body.planId;
    expect(plan).to.be.a('string');
  });
  after(() => server?.close());

  const send = (cap: Cap, n: number) => {
    const path = cap.path(n).replace('{plan}', plan);
    return cap.method === 'get' ? server.api.get(path) : server.api.post(path, cap.body!(n));
  };

  for (const cap of CAPS) {
    it(`${cap.name}: ${cap.max} accepted, ${cap.max + 1} refused naming ${cap.at.join('.')}`, async () => {
      const ok = await send(cap, cap.max);
      expect(ok.status, JSON.stringify(ok.body).slice(0, 300)).to.equal(
        cap.method === 'get' ? 200 : 201,
      );
      const seq = await changes.lastSeq(server.api);
      const refused = await send(cap, cap.max + 1);
      expect(refused.status).to.equal(400);
      expect(refused.body.code).to.equal('invalid_request');
      expect(refused.body.issues.map((i: { path: unknown }) => i.path)).to.deep.include(cap.at);
      expect(await changes.lastSeq(server.api)).to.equal(seq);
    });
  }
});
