import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { conforms } from '../helpers/contract.js';
import * as changes from '../helpers/changes.js';

const P = '/api/v1/families/{familySlug}/people';

describe('people over HTTP', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.close());
  const lastSeq = () => changes.lastSeq(server.api);
  const changesAfter = (seq: number) => changes.changesAfter(server.api, seq);

  describe('POST /people', () => {
    it('adds an adult by default with displayName and role, and logs person.created', async () => {
      const seq = await lastSeq();
      const r = await server.api.post('/people', {
        name: 'Ana Lima',
        familiarName: 'Mum',
        email: 'ana@example.com',
      });
      expect(r.status).to.equal(201);
      await conforms(server, r, 'post', P);
      expect(r.body.ok).to.equal(true);
      expect(r.body.person).to.include({
        name: 'Ana Lima',
        kind: 'adult',
        role: 'adult',
        familiarName: 'Mum',
        displayName: 'Mum',
        email: 'ana@example.com',
        phone: null,
      });
      expect(r.body.person.id).to.match(/^person_[0-9a-z]{20}$/);
      const log = await changesAfter(seq);
      expect(log.map((c) => c.type)).to.deep.equal(['person.created']);
      expect(log[0].object).to.deep.equal(r.body.person);
    });

    it('takes every kind and a phone, and uses the name as displayName without a familiar name', async () => {
      for (const kind of ['adult', 'child', 'helper', 'caregiver', 'other']) {
        const r = await server.api.post('/people', {
          name: `K ${kind}`,
          kind,
          phone: '+44 20 7946 0958',
        });
        expect(r.status).to.equal(201);
        expect(r.body.person).to.include({
          kind,
          role: kind,
          displayName: `K ${kind}`,
          phone: '+44 20 7946 0958',
        });
      }
    });

    it('refuses a missing or blank name, an unknown kind, a bad email and unknown fields', async () => {
      const before = (await server.api.get('/people')).body.people.length;
      for (const [body, path] of [
        [{}, ['name']],
        [{ name: '' }, ['name']],
        [{ name: '  ' }, ['name']],
        [{ name: 'A', kind: 'pet' }, ['kind']],
        [{ name: 'A', email: 'nope' }, ['email']],
        [{ name: 'A', email: 'a@b' }, ['email']],
        [{ name: 'A', role: 'adult' }, ['role']],
      ] as const) {
        const r = await server.api.post('/people', body);
        expect(r.status, JSON.stringify(body)).to.equal(400);
        expect(r.body.issues[0].path).to.deep.equal(path);
      }
      expect((await server.api.get('/people')).body.people).to.have.length(before);
    });

    it("refuses a read-only key and another family's slug with 403", async () => {
      const read = await server.key({ scopes: ['read'] });
      expect((await server.api.post('/people', { name: 'Sneaky' }, { key: read })).status).to.equal(
        403,
      );
      await server.family('neighbours-pp');
      expect(
        (
          await server.http.post(
            '/api/v1/families/neighbours-pp/people',
            { name: 'Sneaky' },
            { key: server.apiKey },
          )
        ).status,
      ).to.equal(403);
      expect((await server.api.get('/people')).body.people.map((p: any) => p.name)).to.not.include(
        'Sneaky',
      );
    });
  });

  describe('GET /people', () => {
    it('lists active people in the order they were added, in the documented shape', async () => {
      const fam = await server.family('listing-people');
      await fam.client.post('/people', { name: 'First' });
      await fam.client.post('/people', { name: 'Second', kind: 'child' });
      const r = await fam.client.get('/people');
      expect(r.status).to.equal(200);
      await conforms(server, r, 'get', P);
      expect(r.body.people.map((p: any) => [p.name, p.role])).to.deep.equal([
        ['First', 'adult'],
        ['Second', 'child'],
      ]);
    });
  });

  describe('PATCH /people/:personId', () => {
    it('changes only the fields sent, clears nullable ones, and logs the previous version', async () => {
      const made = (
        await server.api.post('/people', {
          name: 'Bo',
          familiarName: 'Dad',
          email: 'bo@example.com',
        })
      ).body.person;
      const seq = await lastSeq();
      const r = await server.api.patch(`/people/${made.id}`, {
        familiarName: null,
        email: null,
        kind: 'caregiver',
      });
      expect(r.status).to.equal(200);
      await conforms(server, r, 'patch', `${P}/{personId}`);
      expect(r.body.person).to.include({
        id: made.id,
        name: 'Bo',
        displayName: 'Bo',
        familiarName: null,
        email: null,
        role: 'caregiver',
      });
      const log = await changesAfter(seq);
      expect(log.map((c) => c.type)).to.deep.equal(['person.updated']);
      expect(log[0].previous).to.deep.equal(made);
      expect(log[0].object).to.deep.equal(r.body.person);
      const listed = (await server.api.get('/people')).body.people.find(
        (p: any) => p.id === made.id,
      );
      expect(listed).to.deep.equal(r.body.person);
    });

    it('answers 400 for an empty body or a bad email and 404 for an unknown person', async () => {
      const made = (await server.api.post('/people', { name: 'Cy' })).body.person;
      expect((await server.api.patch(`/people/${made.id}`, {})).status).to.equal(400);
      const bad = await server.api.patch(`/people/${made.id}`, { email: 'cy at home' });
      expect(bad.status).to.equal(400);
      expect(bad.body.issues[0].path).to.deep.equal(['email']);
      expect((await server.api.patch(`/people/${made.id}`, { name: null })).status).to.equal(400);
      const missing = await server.api.patch('/people/person_00000000000000000000', { name: 'X' });
      expect(missing.status).to.equal(404);
      expect(missing.body.code).to.equal('not_found');
      expect(
        (await server.api.get('/people')).body.people.find((p: any) => p.id === made.id),
      ).to.include({ name: 'Cy', email: null });
    });
  });

  describe('DELETE /people/:personId', () => {
    it('hides the person from lists and new references, logs person.deleted, and answers 404 afterwards', async () => {
      const made = (await server.api.post('/people', { name: 'Dee' })).body.person;
      const meal = (
        await server.api.post('/trackers/meals/entries', { title: 'Soup', data: { cook: made.id } })
      ).body.entry;
      const seq = await lastSeq();
      const r = await server.api.delete(`/people/${made.id}`);
      expect(r.status).to.equal(200);
      await conforms(server, r, 'delete', `${P}/{personId}`);
      expect(r.body).to.deep.equal({ ok: true, personId: made.id });
      expect((await server.api.get('/people')).body.people.map((p: any) => p.id)).to.not.include(
        made.id,
      );
      const log = await changesAfter(seq);
      expect(log.map((c) => c.type)).to.deep.equal(['person.deleted']);
      expect(log[0].object).to.include({ id: made.id, name: 'Dee' });
      expect(log[0].object.deletedAt).to.be.a('string');
      const reference = await server.api.post('/trackers/meals/entries', {
        title: 'Stew',
        data: { cook: made.id },
      });
      expect(reference.status).to.equal(400);
      const old = (await server.api.get('/trackers/meals/entries')).body.entries.find(
        (e: any) => e.id === meal.id,
      );
      expect(old.data).to.deep.equal({ cook: made.id });
      expect((await server.api.delete(`/people/${made.id}`)).status).to.equal(404);
      expect((await server.api.patch(`/people/${made.id}`, { name: 'Back' })).status).to.equal(404);
    });

    it('refuses a read-only key', async () => {
      const made = (await server.api.post('/people', { name: 'Eli' })).body.person;
      const read = await server.key({ scopes: ['read'] });
      expect((await server.api.delete(`/people/${made.id}`, { key: read })).status).to.equal(403);
      expect((await server.api.get('/people')).body.people.map((p: any) => p.id)).to.include(
        made.id,
      );
    });
  });
});
