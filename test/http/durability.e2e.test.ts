/**
 * What a failed commit may and may not do, through the real server: a record that cannot be
 * stored is refused before it touches memory; on a full disk writes answer 507 while reads go
 * on, nobody ever reads a change that did not reach the disk, the change log keeps no hole, and
 * writes work again once there is room. The full disk is a small tmpfs (root only; the suite
 * says so and skips where mounting is not allowed).
 */
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { changesAfter } from '../helpers/changes.js';
import { createLogger } from '../../src/logger.js';

function nested(depth: number): unknown {
  let v: unknown = 'leaf';
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

describe('durability: what a failed commit may touch', () => {
  describe('a record that cannot be stored', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer();
    });
    after(() => server?.close());

    it('is refused with 400 while concurrent writes and reads of the family go on untouched', async () => {
      const before = await changesAfter(server.api, 0);
      const writes = Array.from({ length: 40 }, (_, i) =>
        server.api.post('/people', { name: `P${i}` }),
      );
      const deep = server.api.post('/calendar/events', {
        title: 'Deep',
        date: '2026-12-01',
        data: nested(70),
      });
      const reads = Array.from({ length: 20 }, () =>
        server.api.get('/calendar/events?from=2026-12-01&to=2026-12-31'),
      );
      const [w, d, r] = await Promise.all([Promise.all(writes), deep, Promise.all(reads)]);
      expect(d.status).to.equal(400);
      expect(d.body.ok).to.equal(false);
      expect(d.body.issues[0].path[0]).to.equal('data');
      expect(w.map((x) => x.status)).to.deep.equal(Array(40).fill(201));
      for (const x of r) {
        expect(x.status).to.equal(200);
        expect(x.body.events.map((e: any) => e.title)).to.not.include('Deep');
      }
      const after = await changesAfter(server.api, 0);
      const added = after.slice(before.length);
      expect(added.map((c) => c.type)).to.deep.equal(Array(40).fill('person.created'));
      expect(after.map((c) => c.seq)).to.deep.equal(after.map((_, i) => i + 1));
    });

    it('a value JSON cannot carry (1e999 is Infinity) is refused, naming where it is', async () => {
      const r = await server.api.request('POST', '/calendar/events', {
        raw: '{"title":"Inf","date":"2026-12-02","data":{"n":1e999}}',
        contentType: 'application/json',
      });
      expect(r.status).to.equal(400);
      expect(r.body.issues[0].path).to.deep.equal(['data', 'n']);
      const list = await server.api.get('/calendar/events');
      expect(list.body.events.map((e: any) => e.title)).to.not.include('Inf');
    });
  });

  describe('a full disk', function () {
    this.timeout(60_000);
    let mount: string;
    let server: TestServer;
    const lines: Record<string, unknown>[] = [];

    before(async function () {
      if (process.getuid?.() !== 0) {
        console.log('      (skipped: mounting a small tmpfs needs root)');
        this.skip();
      }
      mount = mkdtempSync(join(tmpdir(), 'household-full-'));
      try {
        execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=6m', 'tmpfs', mount], {
          stdio: 'ignore',
        });
      } catch {
        rmSync(mount, { recursive: true, force: true });
        console.log('      (skipped: this machine does not allow mounting a tmpfs)');
        this.skip();
      }
      const logger = createLogger('info', {
        write: (s: string) => {
          lines.push(JSON.parse(s));
        },
      });
      server = await startTestServer({
        dataDir: join(mount, 'data'),
        logger,
        overrides: { storage: { mapSizeMiB: 1 } },
      });
    });
    after(async () => {
      if (server) await server.close({ keepData: true });
      if (mount) {
        try {
          execFileSync('umount', ['-l', mount], { stdio: 'ignore' });
        } catch {
          /* already gone */
        }
        rmSync(mount, { recursive: true, force: true });
      }
    });

    it('answers writes 507, keeps serving reads that never show the refused changes, and recovers when space returns', async () => {
      const ok = await server.api.post('/trackers/groceries/entries', {
        title: 'before the disk filled',
      });
      expect(ok.status).to.equal(201);
      const seqBefore = (await changesAfter(server.api, 0)).length;
      // Fill the file system to the last block.
      const free = statfsSync(mount);
      const filler = join(mount, 'filler');
      writeFileSync(filler, Buffer.alloc(Number(free.bavail * free.bsize)));

      const big = 'x'.repeat(15_000);
      const writes = Array.from({ length: 150 }, (_, i) =>
        server.api.post('/trackers/groceries/entries', {
          title: `lost ${i}`,
          data: { notes: big },
        }),
      );
      const reads = Array.from({ length: 30 }, () =>
        server.api.get('/trackers/groceries/entries?limit=50'),
      );
      const [w, r] = await Promise.all([Promise.all(writes), Promise.all(reads)]);
      const statuses = new Set(w.map((x) => x.status));
      expect(
        [...statuses].every((s) => s === 201 || s === 507),
        `statuses ${[...statuses].join(',')}`,
      ).to.equal(true);
      const refused = w.filter((x) => x.status === 507);
      expect(refused.length).to.be.greaterThan(0);
      expect(refused[0].body).to.include({ ok: false, code: 'insufficient_storage' });
      expect(refused[0].headers.get('retry-after')).to.equal('60');
      const savedTitles = new Set(w.filter((x) => x.status === 201).map((x) => x.body.entry.title));
      for (const x of r) {
        expect(x.status).to.equal(200);
        for (const e of x.body.entries)
          if (e.title.startsWith('lost ')) expect(savedTitles.has(e.title), e.title).to.equal(true);
      }
      // Reads keep working, /healthz says writes are failing, and the log said so once.
      expect((await server.api.get('/trackers')).status).to.equal(200);
      expect((await server.http.get('/healthz')).body.writes).to.equal('failing');
      const failing = lines.filter((l) => l.msg === 'writes are failing; reads go on');
      expect(failing).to.have.length(1);
      // Each failed commit was followed by a fresh LMDB environment (it may refuse work otherwise).
      expect(lines.some((l) => l.msg === 'reopened the store after a failed commit')).to.equal(
        true,
      );

      // Space returns: writes work again, and the change log has no hole.
      rmSync(filler);
      const again = await server.api.post('/trackers/groceries/entries', { title: 'after' });
      expect(again.status).to.equal(201);
      expect(lines.filter((l) => l.msg === 'writes work again')).to.have.length(1);
      expect((await server.http.get('/healthz')).body.writes).to.equal('ok');
      const log = await changesAfter(server.api, 0);
      expect(log.map((c) => c.seq)).to.deep.equal(log.map((_, i) => i + 1));
      expect(log.length).to.equal(seqBefore + savedTitles.size + 1);
      const titles = (
        await server.api.get('/trackers/groceries/entries?limit=50')
      ).body.entries.map((e: any) => e.title);
      expect(titles).to.include('after');
      for (const t of titles) if (t.startsWith('lost ')) expect(savedTitles.has(t)).to.equal(true);
    });
  });
});
