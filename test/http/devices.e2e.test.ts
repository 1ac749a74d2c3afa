/**
 * Devices over REST (`POST/GET/DELETE …/devices`, docs/pages.md) and the pairing link they hand
 * out, without a browser: the key works with the scopes chosen and stops at revocation; the
 * body is checked field by field on both sides of its caps; only an admin key adds or lists;
 * the pairing page lives ten minutes (the daemon's clock, moved by the test), shows no key to a
 * GET, and is spent by its first Continue, which alone sees the key; the Apple profile is held
 * five minutes for that browser only.
 */
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { formPost, formToken, oneSocket } from '../helpers/burst.js';

describe('devices over REST and their pairing link', () => {
  let server: TestServer;
  let offsetMs = 0;

  before(async () => {
    server = await startTestServer({ now: () => new Date(Date.now() + offsetMs) });
  });
  after(() => server?.close());

  const familyPath = () => `/api/v1/families/${server.slug}`;
  const asKey = (key: string, method = 'GET', path = '', body?: unknown) =>
    fetch(`${server.url}${familyPath()}${path}`, {
      method,
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });

  it('adds a device whose key has the chosen scopes, lists it by person with its last use, and revokes it', async () => {
    const ana = (await server.api.post('/people', { name: 'Ana', kind: 'adult' })).body.person;
    const made = await server.api.post('/devices', {
      personId: ana.id,
      name: "Ana's phone",
      scopes: ['read'],
    });
    expect(made.status, made.text).to.equal(201);
    expect(made.body.device).to.include({ name: "Ana's phone", personId: ana.id });
    expect(made.body.device.scopes).to.deep.equal(['read']);
    expect(made.body.apiKey).to.match(new RegExp(`^hk_${made.body.device.id}_`));
    // On the address the daemon hands out (the suite sets server.publicUrl).
    expect(made.body.pairing.url).to.match(
      new RegExp(`^${server.config.server.publicUrl}/pair/[0-9A-Za-z.]+$`),
    );
    expect(Date.parse(made.body.pairing.expiresAt) - Date.now()).to.be.within(9 * 60e3, 10 * 60e3);

    const key = made.body.apiKey as string;
    expect((await asKey(key)).status).to.equal(200);
    const write = await asKey(key, 'POST', '/people', { name: 'Bo', kind: 'child' });
    expect(write.status).to.equal(403);

    const listed = (await server.api.get('/devices')).body.devices as Record<string, unknown>[];
    expect(listed.map((d) => d.id)).to.deep.equal([made.body.device.id]);
    // The key's last use is on the list at once (its write to the disk may still be on its way).
    const lastUsedAt = listed[0].lastUsedAt as string;
    expect(lastUsedAt).to.be.a('string');
    expect(Date.parse(lastUsedAt)).to.be.closeTo(Date.now() + offsetMs, 60e3);

    const gone = await server.api.delete(`/devices/${made.body.device.id}`);
    expect(gone.status, gone.text).to.equal(200);
    expect((await asKey(key)).status).to.equal(401);
    expect((await server.api.get('/devices')).body.devices).to.deep.equal([]);
    expect((await server.http.get(new URL(made.body.pairing.url).pathname)).status).to.equal(404);
    expect((await server.api.delete(`/devices/${made.body.device.id}`)).status).to.equal(404);
  });

  it('checks the body field by field, on both sides of the name cap, and writes nothing it refuses', async () => {
    const before = (await server.api.get('/devices')).body.devices.length as number;
    const refused = [
      [{ name: '', scopes: ['read'] }, ['name']],
      [{ name: 'x'.repeat(201), scopes: ['read'] }, ['name']],
      [{ name: 'Phone', scopes: [] }, ['scopes']],
      [{ name: 'Phone', scopes: ['owner'] }, ['scopes', 0]],
      [{ name: 'Phone', scopes: ['read'], personId: 'person_nobody' }, ['personId']],
    ] as const;
    for (const [body, path] of refused) {
      const r = await server.api.post('/devices', body);
      expect(r.status, JSON.stringify(body)).to.equal(400);
      expect(r.body.issues[0].path, JSON.stringify(body)).to.deep.equal(path);
    }
    expect((await server.api.get('/devices')).body.devices.length).to.equal(before);
    const longest = await server.api.post('/devices', { name: 'x'.repeat(200), scopes: ['read'] });
    expect(longest.status, longest.text).to.equal(201);
    expect(longest.body.device.personId).to.equal(null);
    await server.api.delete(`/devices/${longest.body.device.id}`);
  });

  it('lets only an admin key add, list or revoke devices', async () => {
    const before = (await server.api.get('/devices')).body.devices as unknown[];
    const writer = await server.key({ scopes: ['read', 'write'] });
    expect(
      (await asKey(writer, 'POST', '/devices', { name: 'P', scopes: ['read'] })).status,
    ).to.equal(403);
    expect((await asKey(writer, 'GET', '/devices')).status).to.equal(403);
    // Nothing was added: the list is what it was (whatever earlier tests left in it).
    expect((await server.api.get('/devices')).body.devices).to.deep.equal(before);
  });

  it('opens the pairing page for ten minutes, without the key; its first Continue shows the key once and spends it; the profile is that browser’s', async () => {
    const first = (await server.api.post('/devices', { name: 'iPad', scopes: ['read', 'write'] }))
      .body;
    const pairPath = new URL(first.pairing.url).pathname;
    // A GET (a link preview, a proxy), again and again: the device's name, never its key.
    for (let i = 0; i < 3; i++) {
      const page = await server.http.get(pairPath);
      expect(page.status).to.equal(200);
      expect(page.headers.get('cache-control')).to.equal('no-store');
      expect(page.text).to.include('iPad');
      expect(page.text).to.not.include(first.apiKey);
      expect(page.text).to.not.match(/hk_/);
    }
    const token = await formToken(`${server.url}${pairPath}`);
    const shown = await oneSocket(`${server.url}${pairPath}`, formPost(token, {}));
    expect(shown.status).to.equal(200);
    expect(shown.headers['cache-control']).to.equal('no-store');
    expect(shown.text).to.include(first.apiKey);
    const browser = ([] as string[])
      .concat(shown.headers['set-cookie'] ?? [])
      .map((c) => c.split(';')[0])
      .find((c) => c.startsWith('ho_pair='))!;
    expect(browser).to.be.a('string');
    // Shown once: a second Continue, a second GET find the link spent.
    expect((await oneSocket(`${server.url}${pairPath}`, formPost(token, {}))).status).to.equal(404);
    expect((await server.http.get(pairPath)).status).to.equal(404);
    // The profile: for the browser that pressed Continue, and no other.
    const anyone = await server.http.get(`${pairPath}/apple.mobileconfig`);
    expect(anyone.status).to.equal(404);
    expect(anyone.text).to.not.include(first.apiKey);
    const profile = await server.http.get(`${pairPath}/apple.mobileconfig`, {
      headers: { cookie: browser },
    });
    expect(profile.status).to.equal(200);
    expect(profile.headers.get('cache-control')).to.equal('no-store');
    expect(profile.headers.get('content-type')).to.match(/^application\/x-apple-aspen-config/);
    expect(profile.text).to.include('<string>com.apple.caldav.account</string>');
    expect(profile.text).to.include(`<string>${first.apiKey}</string>`);
    // Its minutes on the daemon's clock.
    offsetMs = 6 * 60e3;
    const late = await server.http.get(`${pairPath}/apple.mobileconfig`, {
      headers: { cookie: browser },
    });
    expect(late.status).to.equal(404);
    offsetMs = 0;

    const second = (await server.api.post('/devices', { name: 'Mac', scopes: ['read'] })).body;
    const path = new URL(second.pairing.url).pathname;
    offsetMs = 9 * 60e3 + 50e3;
    expect((await server.http.get(path)).status).to.equal(200);
    offsetMs = 10 * 60e3 + 5e3;
    expect((await server.http.get(path)).status).to.equal(404);
    // The device itself stays: only the link ended.
    expect((await asKey(second.apiKey)).status).to.equal(200);
    offsetMs = 0;
  });
});
