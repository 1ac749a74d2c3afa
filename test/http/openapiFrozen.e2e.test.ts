/**
 * The served OpenAPI document is held as it is, but for its prose: paths, operations,
 * parameters, schemas and examples must not move when the code is reorganised. Descriptions
 * (and summaries) may be reworded freely, so they are left out of the comparison.
 *
 * When the API changes on purpose (a new path, a new field), regenerate the fixture and commit
 * it with the change:
 *
 *   npm run build && UPDATE_OPENAPI_FIXTURE=1 node test/run.mjs openapiFrozen
 */
import { expect } from 'chai';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestServer, type TestServer } from '../helpers/server.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const FIXTURE = join(root, 'test/fixtures/openapi.stripped.json');

/** The document without its prose, and without what depends on the running server. */
function stripped(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => stripped(v));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    // `description` and `summary` are prose; a property *named* so in a schema is not.
    const prose = (k === 'description' || k === 'summary') && typeof v === 'string';
    if (prose && key !== 'properties') continue;
    if (key === '' && k === 'servers') continue;
    out[k] = stripped(v, k);
  }
  return out;
}

describe('the served OpenAPI document', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.close());

  it('is the one in test/fixtures/openapi.stripped.json but for descriptions', async () => {
    const res = await server.http.get('/api/v1/openapi.json');
    expect(res.status).to.equal(200);
    type Doc = { paths: Record<string, unknown>; info: { version?: string } };
    const now = stripped(res.body) as Doc;
    delete now.info.version;
    if (process.env.UPDATE_OPENAPI_FIXTURE) {
      writeFileSync(FIXTURE, `${JSON.stringify(now, null, 2)}\n`);
    }
    const held = JSON.parse(readFileSync(FIXTURE, 'utf8')) as typeof now;
    expect(Object.keys(now.paths).length, 'paths are served').to.be.greaterThan(20);
    expect(Object.keys(now.paths)).to.deep.equal(Object.keys(held.paths));
    expect(now).to.deep.equal(held);
  });
});
