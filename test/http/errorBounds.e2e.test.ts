/**
 * Error answers are bounded: at most 20 issues, with `issueCount` when more were found, and a
 * huge array is refused by the body reader before validation walks it.
 */
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { conforms } from '../helpers/contract.js';
import * as changes from '../helpers/changes.js';

describe('bounded error answers', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.close());

  describe('POST /calendar/events with a 391 KiB repeatDays', () => {
    it('answers one short issue about the array instead of 100,000', async () => {
      const raw = JSON.stringify({
        title: 'Hostile',
        date: '2026-12-01',
        repeatFrequency: 'weekly',
        repeatDays: Array.from({ length: 100_000 }, () => 'x'),
      });
      expect(raw.length).to.be.above(390 * 1024);
      const seq = await changes.lastSeq(server.api);
      const r = await server.api.request('POST', '/calendar/events', {
        raw,
        contentType: 'application/json',
      });
      expect(r.status).to.equal(400);
      expect(r.body).to.deep.equal({
        ok: false,
        code: 'invalid_request',
        error: 'repeatDays must have at most 1000 items',
        issues: [{ path: ['repeatDays'], message: 'must have at most 1000 items' }],
      });
      expect(r.text.length).to.be.below(300);
      expect(await changes.lastSeq(server.api)).to.equal(seq);
    });
  });

  describe('POST /trackers', () => {
    // Each non-object in `fields` is one issue ("must be an object"); 100 fields are allowed.
    const fields = (n: number) => ({
      name: `Bounded ${n}`,
      fields: Array.from({ length: n }, () => 1),
    });

    it('lists 20 issues without a count when 20 were found', async () => {
      const r = await server.api.post('/trackers', fields(20));
      expect(r.status).to.equal(400);
      expect(r.body.issues).to.have.length(20);
      expect(r.body).to.not.have.property('issueCount');
      expect(r.body.error).to.equal('fields.0 must be an object (and 19 more problems)');
      await conforms(server, r, 'post', '/api/v1/families/{familySlug}/trackers');
    });

    it('lists the first 20 issues and counts all 21 when 21 were found', async () => {
      const r = await server.api.post('/trackers', fields(21));
      expect(r.status).to.equal(400);
      expect(r.body.issues).to.have.length(20);
      expect(r.body.issues.map((i: any) => i.path)).to.deep.equal(
        Array.from({ length: 20 }, (_, i) => ['fields', i]),
      );
      expect(r.body.issueCount).to.equal(21);
      expect(r.body.error).to.equal('fields.0 must be an object (and 20 more problems)');
      await conforms(server, r, 'post', '/api/v1/families/{familySlug}/trackers');
    });

    it('stops counting at 1,000 problems and says "at least"', async () => {
      // Two select fields of 1,000 options that are not strings: 2,000 problems inside the caps.
      const body = {
        name: 'Many',
        fields: [0, 1].map((i) => ({
          key: `f${i}`,
          label: 'F',
          type: 'select',
          options: Array(1000).fill(7),
        })),
      };
      const r = await server.api.post('/trackers', body);
      expect(r.status).to.equal(400);
      expect(r.body.issues).to.have.length(20);
      expect(r.body.issueCount).to.equal(1000);
      expect(r.body.error).to.equal(
        'fields.0.options.0 must be a string (and at least 999 more problems)',
      );
    });
  });

  describe('POST /trackers/:key/entries/batch', () => {
    it('bounds the issues the domain finds too: 50 bad items answer 20 issues and a count of 50', async () => {
      const seq = await changes.lastSeq(server.api);
      const r = await server.api.post('/trackers/groceries/entries/batch', {
        items: Array.from({ length: 50 }, (_, i) => ({ title: `g${i}`, data: { aisle: 'moon' } })),
      });
      expect(r.status).to.equal(400);
      expect(r.body.issues).to.have.length(20);
      expect(r.body.issues[0].path).to.deep.equal(['items', 0, 'data', 'aisle']);
      expect(r.body.issueCount).to.equal(50);
      expect(await changes.lastSeq(server.api)).to.equal(seq);
    });

    it('answers an Idempotency-Key retry with the same bounded answer, decided again (refusals are not kept)', async () => {
      const body = {
        items: Array.from({ length: 50 }, (_, i) => ({ title: `h${i}`, data: { aisle: 'moon' } })),
      };
      const first = await server.api.post('/trackers/groceries/entries/batch', body, {
        headers: { 'idempotency-key': 'bounded-1' },
      });
      const again = await server.api.post('/trackers/groceries/entries/batch', body, {
        headers: { 'idempotency-key': 'bounded-1' },
      });
      expect(again.headers.get('idempotent-replayed')).to.equal(null);
      expect(again.status).to.equal(400);
      expect(again.body.issues).to.have.length(20);
      expect(again.body.issues).to.deep.equal(first.body.issues);
    });
  });
});
