import { expect } from 'chai';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, startTestServer, tempDataDir } from '../helpers/server.js';
import { runCli, spawnDaemon, type ChildDaemon } from '../helpers/child.js';
import { Store } from '../../src/store/store.js';
import { queueFamilyUpdate } from '../../src/family/admin.js';

describe('household-organizer CLI', function () {
  this.timeout(60_000);
  let dir: string;
  let daemon: ChildDaemon;
  const cli = (...args: string[]) => runCli([...args, '--data-dir', dir]);

  before(async () => {
    dir = tempDataDir();
    daemon = await spawnDaemon(dir);
  });
  after(async () => {
    daemon.proc.kill('SIGTERM');
    await daemon.exited;
    rmSync(dir, { recursive: true, force: true });
  });

  it('family create --json prints the family and a key that works at once against the running daemon', async () => {
    const r = await cli(
      'family',
      'create',
      'smiths',
      '--name',
      'The Smiths',
      '--timezone',
      'Europe/Berlin',
      '--json',
    );
    expect(r.code, r.stderr).to.equal(0);
    const out = JSON.parse(r.stdout);
    expect(out.family).to.deep.include({
      slug: 'smiths',
      name: 'The Smiths',
      timezone: 'Europe/Berlin',
    });
    expect(out.family.id).to.match(/^fam_/);
    expect(out.apiKey).to.match(/^hk_[0-9A-Za-z]{12}_[0-9A-Za-z]{32}$/);
    const api = new Client(`${daemon.url}/api/v1/families/smiths`, out.apiKey);
    expect((await api.post('/people', { name: 'Ana' })).status).to.equal(201);
  });

  it('family create refuses a taken slug, a bad slug and an unknown time zone', async () => {
    expect((await cli('family', 'create', 'home')).stderr).to.match(/already exists/);
    expect((await cli('family', 'create', 'Bad Slug')).code).to.not.equal(0);
    expect((await cli('family', 'create', 'tz', '--timezone', 'Mars/Base')).stderr).to.match(
      /IANA/,
    );
  });

  it('family update sets the location (and name, time zone) while serve runs, refusing bad input', async () => {
    const r = await cli(
      'family',
      'update',
      'smiths',
      '--location',
      'Berlin',
      '--name',
      'Smith family',
      '--json',
    );
    expect(r.code, r.stderr).to.equal(0);
    expect(JSON.parse(r.stdout)).to.deep.include({ applied: true });
    expect(JSON.parse(r.stdout).family).to.deep.include({
      slug: 'smiths',
      name: 'Smith family',
      timezone: 'Europe/Berlin',
      location: 'Berlin',
    });
    expect(
      JSON.parse((await cli('family', 'list', '--json')).stdout).families.find(
        (f: any) => f.slug === 'smiths',
      ).location,
    ).to.equal('Berlin');
    const cleared = await cli('family', 'update', 'smiths', '--location', '', '--json');
    expect(JSON.parse(cleared.stdout).family.location).to.equal(null);
    expect(
      (await cli('family', 'update', 'smiths', '--location', '52.52,13.41', '--json')).code,
    ).to.equal(0);
    expect((await cli('family', 'update', 'smiths', '--location', '95,13')).stderr).to.match(
      /location/,
    );
    expect((await cli('family', 'update', 'smiths', '--timezone', 'Mars/Base')).stderr).to.match(
      /IANA/,
    );
    // One zone check with the API: an offset is no named zone; a name is stored in IANA casing.
    expect((await cli('family', 'update', 'smiths', '--timezone', '+01:00')).stderr).to.match(
      /IANA/,
    );
    const cased = await cli('family', 'update', 'smiths', '--timezone', 'europe/berlin', '--json');
    expect(JSON.parse(cased.stdout).family.timezone).to.equal('Europe/Berlin');
    expect((await cli('family', 'update', 'nobody', '--location', 'Oslo')).code).to.equal(1);
    expect((await cli('family', 'update', 'smiths')).code).to.equal(2);
    // The language: the API's rule (canonical form, 400 naming locale), live on the daemon.
    const german = await cli('family', 'update', 'smiths', '--locale', 'de-de', '--json');
    expect(JSON.parse(german.stdout).family.locale).to.equal('de-DE');
    const bad = await cli('family', 'update', 'smiths', '--locale', 'de_DE');
    expect([bad.code, bad.stderr]).to.satisfy(
      ([c, e]: [number, string]) => c !== 0 && /locale/.test(e),
    );
  });

  it('family update --timezone reaches the running daemon within a second: the zone, and the routines that follow it, move at once', async () => {
    const key = JSON.parse((await cli('key', 'create', 'smiths', '--json')).stdout).apiKey;
    const api = new Client(`${daemon.url}/api/v1/families/smiths`, key);
    const routine = (await api.post('/notification-routines', { cron: '0 7 * * *' })).body.routine;
    expect(routine).to.include({ timezone: 'Europe/Berlin', followsFamilyZone: true });
    const r = await cli('family', 'update', 'smiths', '--timezone', 'Asia/Tokyo', '--json');
    expect(r.code, r.stderr).to.equal(0);
    expect(JSON.parse(r.stdout)).to.deep.include({ applied: true });
    expect(JSON.parse(r.stdout).family).to.include({ slug: 'smiths', timezone: 'Asia/Tokyo' });
    expect((await api.get('')).body.family.timezone).to.equal('Asia/Tokyo');
    const moved = (await api.get('/notification-routines')).body.routines.find(
      (x: any) => x.id === routine.id,
    );
    expect(moved).to.include({ timezone: 'Asia/Tokyo', followsFamilyZone: true });
    expect(new Date(moved.nextRunAt).getUTCHours()).to.equal(22); // 07:00 JST
    const logged = (await api.get('/changes?after=0&limit=500')).body.changes.filter(
      (c: any) => c.type === 'family.updated',
    );
    expect(logged.at(-1)).to.deep.include({ actor: { keyId: null, personId: null } });
    expect(logged.at(-1).object.timezone).to.equal('Asia/Tokyo');
    // How long the daemon takes, without the CLI's own start: queue as the CLI does, watch the API.
    const store = Store.open(dir);
    try {
      const started = Date.now();
      await queueFamilyUpdate(
        store,
        'smiths',
        { timezone: 'Europe/Berlin' },
        { now: new Date(), id: 'latency-check' },
      );
      while ((await api.get('')).body.family.timezone !== 'Europe/Berlin') {
        expect(Date.now() - started, 'applied by the running daemon within a second').to.be.below(
          1_000,
        );
        await new Promise((res) => setTimeout(res, 20));
      }
    } finally {
      await store.close();
    }
  });

  it('family update with no daemon running is queued and applied, with its re-planning, when the family next loads', async () => {
    const other = tempDataDir();
    try {
      let server = await startTestServer({ dataDir: other, timezone: 'Europe/Lisbon' });
      const routine = (await server.api.post('/notification-routines', { cron: '0 7 * * *' })).body
        .routine;
      await server.close({ keepData: true });
      const r = await runCli([
        'family',
        'update',
        'home',
        '--timezone',
        'America/Chicago',
        '--json',
        '--data-dir',
        other,
      ]);
      expect(r.code, r.stderr).to.equal(0);
      expect(JSON.parse(r.stdout)).to.deep.include({ applied: false });
      expect(JSON.parse(r.stdout).family.timezone).to.equal('America/Chicago');
      const store = Store.open(other);
      try {
        const home = store.getFamilyBySlug('home')!;
        expect(home.timezone, 'nothing written to the family itself').to.equal('Europe/Lisbon');
        expect(store.queuedFamilyUpdate(home.id)?.patch).to.deep.equal({
          timezone: 'America/Chicago',
        });
      } finally {
        await store.close();
      }
      server = await startTestServer({ dataDir: other });
      try {
        expect((await server.api.get('')).body.family.timezone).to.equal('America/Chicago');
        const moved = (await server.api.get('/notification-routines')).body.routines.find(
          (x: any) => x.id === routine.id,
        );
        expect(moved.timezone).to.equal('America/Chicago');
        expect([12, 13]).to.include(new Date(moved.nextRunAt).getUTCHours()); // 07:00 CDT or CST
        const home = server.daemon.store.getFamilyBySlug('home')!;
        expect(home.timezone).to.equal('America/Chicago');
        expect(server.daemon.store.queuedFamilyUpdate(home.id)).to.equal(undefined);
      } finally {
        await server.close({ keepData: true });
      }
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('family list shows every family', async () => {
    const r = await cli('family', 'list', '--json');
    expect(JSON.parse(r.stdout).families.map((f: any) => f.slug)).to.include.members([
      'home',
      'smiths',
    ]);
  });

  it('key create, list and revoke work while serve runs', async () => {
    const made = JSON.parse(
      (await cli('key', 'create', 'home', '--scopes', 'read', '--name', 'dashboard', '--json'))
        .stdout,
    );
    expect(made.key).to.deep.include({ name: 'dashboard', scopes: ['read'], personId: null });
    const api = new Client(`${daemon.url}/api/v1/families/home`, made.apiKey);
    expect((await api.get('/people')).status).to.equal(200);
    expect((await api.post('/people', { name: 'x' })).status).to.equal(403);
    const list = JSON.parse((await cli('key', 'list', 'home', '--json')).stdout).keys;
    const listed = list.find((k: any) => k.id === made.key.id);
    expect(listed).to.include({ name: 'dashboard' });
    expect(listed).to.not.have.property('secretHash');
    const revoked = await cli('key', 'revoke', made.key.id, '--json');
    expect(revoked.code).to.equal(0);
    expect((await api.get('/people')).status).to.equal(401);
  });

  it('key list of an unknown family is refused in one line with exit 1, like key create', async () => {
    for (const args of [
      ['key', 'list', 'nobody'],
      ['key', 'create', 'nobody'],
    ]) {
      const r = await cli(...args);
      expect(r.code, args.join(' ')).to.equal(1);
      expect(r.stderr.trim().split('\n'), args.join(' ')).to.deep.equal([
        `no family with slug "nobody"`,
      ]);
    }
  });

  it('key create defaults to all three scopes and checks --person', async () => {
    const made = JSON.parse((await cli('key', 'create', 'home', '--json')).stdout);
    expect(made.key.scopes).to.deep.equal(['read', 'write', 'admin']);
    const bad = await cli('key', 'create', 'home', '--person', 'person_nobody', '--json');
    expect(bad.code).to.not.equal(0);
    const api = new Client(`${daemon.url}/api/v1/families/home`, made.apiKey);
    const person = (await api.post('/people', { name: 'Kid', kind: 'child' })).body.person.id;
    const withPerson = JSON.parse(
      (await cli('key', 'create', 'home', '--person', person, '--json')).stdout,
    );
    expect(withPerson.key.personId).to.equal(person);
  });

  it('backup makes a consistent copy while serve runs', async () => {
    const target = join(dir, 'backup');
    const r = await cli('backup', target, '--json');
    expect(r.code, r.stderr).to.equal(0);
    const copy = Store.open(target);
    try {
      expect(copy.listFamilies().map((f) => f.slug)).to.include.members(['home', 'smiths']);
    } finally {
      await copy.close();
    }
  });

  it('export and import restore a family exactly: ids, order and log', async () => {
    const file = join(dir, 'smiths.json');
    const api = new Client(`${daemon.url}/api/v1/families/home`, null);
    void api;
    expect((await cli('export', 'smiths', '--out', file)).code).to.equal(0);
    const exported = JSON.parse(readFileSync(file, 'utf8'));
    expect(exported.family.slug).to.equal('smiths');
    expect(exported.log.length).to.be.greaterThan(0);
    const other = tempDataDir();
    try {
      const r = await runCli(['import', file, '--data-dir', other, '--json']);
      expect(r.code, r.stderr).to.equal(0);
      const again = await runCli(['export', 'smiths', '--data-dir', other]);
      const reexported = JSON.parse(again.stdout);
      expect(reexported.family).to.deep.equal(exported.family);
      expect(reexported.records).to.deep.equal(exported.records);
      expect(reexported.log).to.deep.equal(exported.log);
      expect(reexported.keys).to.deep.equal(exported.keys);
      const twice = await runCli(['import', file, '--data-dir', other]);
      expect(twice.code).to.not.equal(0);
      expect(twice.stderr).to.match(/already exists/);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
  it('import of an export that lacks the built-in collections gives them back on first use', async () => {
    const exported = JSON.parse((await cli('export', 'smiths')).stdout);
    const builtins = exported.records.filter((r: any) => r.value?.builtin === true);
    expect(builtins.map((r: any) => r.value.key).sort()).to.deep.equal(
      ['calendar', 'chores', 'groceries', 'meals', 'routines'].sort(),
    );
    exported.records = exported.records.filter((r: any) => r.value?.builtin !== true);
    const other = tempDataDir();
    const file = join(other, '..', `without-builtins-${Date.now()}.json`);
    writeFileSync(file, JSON.stringify(exported));
    try {
      const r = await runCli(['import', file, '--data-dir', other]);
      expect(r.code, r.stderr).to.equal(0);
      const server = await startTestServer({ dataDir: other });
      try {
        const key = await server.key({ slug: 'smiths' });
        const api = new Client(`${server.url}/api/v1/families/smiths`, key);
        const list = await api.get('/trackers');
        expect(list.status).to.equal(200);
        const keysListed = list.body.trackers.map((t: any) => t.key);
        expect(keysListed.slice(0, 5)).to.deep.equal([
          'calendar',
          'meals',
          'chores',
          'routines',
          'groceries',
        ]);
        expect(list.body.trackers.slice(0, 5).every((t: any) => t.builtin)).to.equal(true);
        expect((await api.post('/trackers/chores/entries', { title: 'Bins' })).status).to.equal(
          201,
        );
      } finally {
        await server.close({ keepData: true });
      }
      // They were written to disk, not only shown: the store now holds them.
      const store = Store.open(other);
      try {
        const fam = store.getFamilyBySlug('smiths')!;
        const tables = Array.from(store.familyRecords(fam.id)).filter(
          (r) => (r.value as any)?.builtin === true,
        );
        expect(tables).to.have.length(5);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(other, { recursive: true, force: true });
      rmSync(file, { force: true });
    }
  });
});
