import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { connect } from 'node:net';
import { Client } from '../helpers/server.js';
import { open as openLmdb } from 'lmdb';
import { runCli, spawnDaemon } from '../helpers/child.js';
import { Store, STORE_FILE } from '../../src/store/store.js';
import { keys } from '../../src/store/layout.js';
import { tempDataDir } from '../helpers/server.js';

describe('the daemon process', function () {
  this.timeout(60_000);
  const dirs: string[] = [];
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('keeps every acknowledged write across kill -9', async () => {
    const dir = tempDataDir();
    dirs.push(dir);
    const first = await spawnDaemon(dir);
    expect(first.bootstrapKey).to.be.a('string');
    const api = new Client(`${first.url}/api/v1/families/home`, first.bootstrapKey);
    const acknowledged: string[] = [];
    let stop = false;
    let killed = false;
    // 20 writers keep writing; the daemon is killed right after the 300th acknowledgement,
    // with writes still in flight.
    async function writer(w: number) {
      for (let i = 0; !stop; i++) {
        try {
          const r = await api.post('/people', { name: `w${w}-${i}` });
          if (r.status === 201) {
            acknowledged.push(r.body.person.id);
            if (acknowledged.length >= 300 && !killed) {
              killed = true;
              stop = true;
              first.proc.kill('SIGKILL');
            }
          }
        } catch {
          stop = true;
        }
      }
    }
    await Promise.all(Array.from({ length: 20 }, (_, w) => writer(w)));
    const exit = await first.exited;
    expect(exit.signal).to.equal('SIGKILL');
    expect(acknowledged.length).to.be.at.least(300);

    const second = await spawnDaemon(dir);
    try {
      expect(second.bootstrapKey, 'no second first-family').to.equal(null);
      const api2 = new Client(`${second.url}/api/v1/families/home`, first.bootstrapKey);
      const people = (await api2.get('/people')).body.people.map((p: any) => p.id) as string[];
      const found = new Set(people);
      const lost = acknowledged.filter((id) => !found.has(id));
      expect(lost, 'acknowledged writes lost').to.deep.equal([]);
      // The change log holds them too, in order and without gaps.
      const log = (await api2.get('/changes?after=0&limit=500')).body.changes as { seq: number }[];
      expect(log.map((c) => c.seq)).to.deep.equal(
        Array.from({ length: log.length }, (_, i) => i + 1),
      );
    } finally {
      second.proc.kill('SIGTERM');
      await second.exited;
    }
  });

  it('stops cleanly on SIGTERM, finishing in-flight requests, and keeps everything on restart', async () => {
    const dir = tempDataDir();
    dirs.push(dir);
    const d = await spawnDaemon(dir);
    const api = new Client(`${d.url}/api/v1/families/home`, d.bootstrapKey);
    const inFlight = Array.from({ length: 30 }, (_, i) =>
      api.post('/people', { name: `p${i}` }).catch(() => null),
    );
    // One request provably in flight across the signal: its body is only half sent when SIGTERM
    // arrives, and the rest follows once the daemon has said it is stopping.
    const { port, hostname } = new URL(d.url);
    const body = JSON.stringify({ name: 'Slow Sender' });
    const sock = connect(Number(port), hostname);
    await new Promise((r) => sock.once('connect', r));
    let answer = '';
    sock.on('data', (c: Buffer) => {
      answer += c.toString();
    });
    const closed = new Promise((r) => sock.once('close', r));
    sock.write(
      `POST /api/v1/families/home/people HTTP/1.1\r\nHost: ${hostname}\r\nx-api-key: ${d.bootstrapKey}\r\n` +
        `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 8)}`,
    );
    await new Promise((r) => setTimeout(r, 50));
    const started = Date.now();
    d.proc.kill('SIGTERM');
    while (!d.output().includes('received SIGTERM, stopping'))
      await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 100));
    expect(
      d.proc.exitCode,
      'the daemon waits for the request whose body is still arriving',
    ).to.equal(null);
    sock.write(body.slice(8));
    await closed;
    expect(answer).to.match(/^HTTP\/1\.1 201 /);
    const slowId = /"id":"(person_[0-9a-z]{20})"/.exec(answer)![1];
    const replies = await Promise.all(inFlight);
    const exit = await d.exited;
    expect(exit.code).to.equal(0);
    expect(Date.now() - started).to.be.below(10_000);
    const ok = replies.filter((r) => r && r.status === 201).map((r) => r!.body.person.id as string);
    const d2 = await spawnDaemon(dir);
    try {
      const api2 = new Client(`${d2.url}/api/v1/families/home`, d.bootstrapKey);
      const ids = new Set((await api2.get('/people')).body.people.map((p: any) => p.id));
      for (const id of ok) expect(ids.has(id), id).to.equal(true);
      expect(ids.has(slowId), 'the request in flight across SIGTERM was kept').to.equal(true);
      expect(d.output()).to.match(/"msg":"listening on 127\.0\.0\.1:\d+"/);
      expect(d.output()).to.include('"msg":"stopped"');
    } finally {
      d2.proc.kill('SIGTERM');
      await d2.exited;
    }
  });

  it('refuses to start with an unknown or ill-typed config key, naming it', async () => {
    const dir = tempDataDir();
    dirs.push(dir);
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${dir}/bad.json`, JSON.stringify({ server: { prot: 1 } }));
    const r = await runCli(['serve', '--config', `${dir}/bad.json`, '--data-dir', dir]);
    expect(r.code).to.not.equal(0);
    expect(r.stderr).to.include('unknown config key "server.prot"');
    writeFileSync(`${dir}/bad2.json`, JSON.stringify({ rateLimit: { perMinute: 'lots' } }));
    const r2 = await runCli(['serve', '--data-dir', dir], { HOUSEHOLD_CONFIG: `${dir}/bad2.json` });
    expect(r2.stderr).to.include('config key "rateLimit.perMinute" is invalid');
  });
  it('refuses to serve a store written by a newer version, saying so, with exit code 78', async () => {
    const dir = tempDataDir();
    dirs.push(dir);
    await Store.open(dir).close();
    const raw = openLmdb({ path: `${dir}/${STORE_FILE}` });
    raw.putSync(keys.schemaVersion(), 99);
    await raw.close();
    const r = await runCli(['serve', '--data-dir', dir, '--port', '0', '--host', '127.0.0.1']);
    expect(r.code).to.equal(78);
    expect(r.stderr).to.match(/schema version 99, newer than this program understands/);
    // Nothing was changed: the version on disk is still the newer one.
    const again = openLmdb({ path: `${dir}/${STORE_FILE}` });
    expect(again.get(keys.schemaVersion())).to.equal(99);
    await again.close();
  });
});
