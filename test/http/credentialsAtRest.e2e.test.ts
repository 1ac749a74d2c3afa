/**
 * No credential shown once can be read from a copy of the store: calendar-share tokens and
 * webhook signing secrets (on create and on rotateSecret), each made with and without an
 * Idempotency-Key, are searched for in the live store file and in a `backup`, and the
 * Idempotency-Keys themselves must not be there either. The same caller's retry still gets the
 * same answer back; another key's does not. The destination record keeps its signing secret
 * (it must sign), so the backup holds each secret exactly once — there, not in a kept answer.
 */
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, startTestServer, type TestServer, type Reply } from '../helpers/server.js';
import { runCli } from '../helpers/child.js';
import { STORE_FILE } from '../../src/store/store.js';

function count(haystack: Buffer, needle: string): number {
  let n = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) n++;
  return n;
}

describe('credentials shown once are not readable at rest', function () {
  this.timeout(30_000);
  let server: TestServer;
  let backups: string;
  const replays: { first: Reply; again: Reply }[] = [];
  const tokens: string[] = [];
  const secrets: string[] = [];
  const idemKeys: string[] = [];

  before(async () => {
    server = await startTestServer();
    backups = mkdtempSync(join(tmpdir(), 'household-backup-'));
    const api = server.api;
    /** Sends twice with the same Idempotency-Key; keeps both answers. */
    const twice = async (
      method: 'post' | 'patch',
      path: string,
      body: unknown,
      idemKey: string,
    ) => {
      idemKeys.push(idemKey);
      const headers = { 'idempotency-key': idemKey };
      const first = await api[method](path, body, { headers });
      const again = await api[method](path, body, { headers });
      replays.push({ first, again });
      return first;
    };

    const plainShare = await api.post('/calendar/shares', { name: 'Grandparents' });
    expect(plainShare.status).to.equal(201);
    const idemShare = await twice(
      'post',
      '/calendar/shares',
      { name: 'Babysitter' },
      'share-create-Zq81vX',
    );
    tokens.push(plainShare.body.token, idemShare.body.token);

    const url = 'http://127.0.0.1:9/hook';
    const plainHook = await api.post('/webhook-destinations', {
      name: 'Plain',
      url,
      eventTypes: ['person.created'],
    });
    expect(plainHook.status).to.equal(201);
    const idemHook = await twice(
      'post',
      '/webhook-destinations',
      { name: 'Kept', url, eventTypes: ['person.created'] },
      'hook-create-Kw47pT',
    );
    const rotated = await twice(
      'patch',
      `/webhook-destinations/${idemHook.body.destination.id}`,
      { rotateSecret: true },
      'hook-rotate-Lm29sD',
    );
    const plainRotated = await api.patch(`/webhook-destinations/${plainHook.body.destination.id}`, {
      rotateSecret: true,
    });
    for (const r of [plainHook, idemHook, rotated, plainRotated])
      secrets.push(r.body.signingSecret);

    const r = await runCli(['backup', join(backups, 'b'), '--data-dir', server.dataDir, '--json']);
    expect(r.code, r.stderr).to.equal(0);
  });
  after(async () => {
    await server.close();
    rmSync(backups, { recursive: true, force: true });
  });

  it('replays each retry with the same answer, credential included', () => {
    expect(replays).to.have.length(3);
    for (const { first, again } of replays) {
      expect([200, 201]).to.include(first.status);
      expect(again.status).to.equal(first.status);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(again.body).to.deep.equal(first.body);
    }
    expect(tokens.every((t) => /^shr_/.test(t))).to.equal(true);
    expect(secrets.every((s) => /^whsec_/.test(s))).to.equal(true);
    expect(new Set([...tokens, ...secrets]).size).to.equal(6);
  });

  it('the live store file holds no share token and no Idempotency-Key', () => {
    const file = readFileSync(join(server.dataDir, STORE_FILE));
    for (const t of tokens) expect(count(file, t.slice(4)), t).to.equal(0);
    for (const k of idemKeys) expect(count(file, k), k).to.equal(0);
  });

  it('a backup holds no share token, no Idempotency-Key, and each signing secret only where it signs', () => {
    const file = readFileSync(join(backups, 'b', STORE_FILE));
    for (const t of tokens) expect(count(file, t.slice(4)), t).to.equal(0);
    for (const k of idemKeys) expect(count(file, k), k).to.equal(0);
    // Each secret once: the destination's `secret` (or `previousSecret`, which signs beside the
    // new one for 24 h after a rotation); a kept answer holding one would make it twice.
    for (const s of secrets) expect(count(file, s.slice(6)), s).to.equal(1);
  });

  it('another key with the same Idempotency-Key neither sees the answer nor its credential', async () => {
    const other = new Client(
      server.api.baseUrl,
      await server.key({ scopes: ['read', 'write', 'admin'] }),
    );
    const r = await other.post(
      '/calendar/shares',
      { name: 'Babysitter' },
      { headers: { 'idempotency-key': 'share-create-Zq81vX' } },
    );
    expect(r.status).to.equal(201);
    expect(r.headers.get('idempotent-replayed')).to.equal(null);
    expect(r.body.token).to.not.equal(tokens[1]);
  });

  it('an answer kept by an earlier version (withheld on open) is recognized but not repeated', async () => {
    // What opening an older store leaves: the plain SHA-256 fingerprint, the body dropped.
    const store = server.daemon.store;
    const family = store.getFamilyBySlug('home')!;
    const keyId = server.apiKey.slice(3, 15);
    const idemKey = 'older-version-Rt52';
    const raw = JSON.stringify({ name: 'Before the upgrade' });
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    await store.commit(family.id, {
      idempotency: [
        {
          keyId,
          idemKey: sha(idemKey),
          record: {
            fingerprint: sha(`POST /api/v1/families/home/people\n${raw}`),
            status: 201,
            expiresAt: Date.now() + 3600_000,
            withheld: true,
          },
        },
      ],
    });
    const headers = { 'idempotency-key': idemKey };
    const before = (await server.api.get('/people')).body.people.length;
    const again = await server.api.request('POST', '/people', {
      raw,
      contentType: 'application/json',
      headers,
    });
    expect(again.status).to.equal(201);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.body).to.include({ ok: true, idempotentReplay: true });
    expect((await server.api.get('/people')).body.people.length).to.equal(before);
    const other = await server.api.post('/people', { name: 'Someone else' }, { headers });
    expect(other.status).to.equal(422);
  });

  it('a retry with a different body is still refused 422', async () => {
    const r = await server.api.post(
      '/calendar/shares',
      { name: 'Someone else' },
      { headers: { 'idempotency-key': 'share-create-Zq81vX' } },
    );
    expect(r.status).to.equal(422);
    expect(r.body.code).to.equal('idempotency_mismatch');
  });
});
