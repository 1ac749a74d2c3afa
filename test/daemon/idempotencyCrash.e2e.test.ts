/**
 * An Idempotency-Key's answer is written in the same transaction as the change it made, so a
 * kill -9 can never leave a change without its answer: a client that retries every request
 * whose answer it did not get (same key, same body) after the daemon comes back ends up with
 * each change made exactly once.
 */
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { Client, tempDataDir } from '../helpers/server.js';
import { spawnDaemon } from '../helpers/child.js';

describe('Idempotency-Key across kill -9', function () {
  this.timeout(120_000);
  const dir = tempDataDir();
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('makes every retried change exactly once over repeated crashes', async () => {
    let daemon = await spawnDaemon(dir);
    const key = daemon.bootstrapKey!;
    const answered = new Set<number>();
    const unknown = new Set<number>();
    let next = 0;
    for (let round = 0; round < 6; round++) {
      const api = new Client(`${daemon.url}/api/v1/families/home`, key);
      const send = (i: number) =>
        api.post(
          '/people',
          { name: `person ${i}` },
          { headers: { 'idempotency-key': `create-${i}` } },
        );
      // Retry what the last crash left unanswered, then write new ones until the kill.
      for (const i of [...unknown]) {
        const r = await send(i);
        expect(r.status, JSON.stringify(r.body)).to.equal(201);
        unknown.delete(i);
        answered.add(i);
      }
      let killed = false;
      const killAfter = 40 + round * 15;
      let acks = 0;
      async function writer() {
        while (!killed) {
          const i = next++;
          unknown.add(i);
          try {
            const r = await send(i);
            if (r.status === 201) {
              unknown.delete(i);
              answered.add(i);
              if (++acks >= killAfter && !killed) {
                killed = true;
                daemon.proc.kill('SIGKILL');
              }
            }
          } catch {
            return; // connection cut by the kill: i stays unknown
          }
        }
      }
      await Promise.all(Array.from({ length: 16 }, writer));
      await daemon.exited;
      daemon = await spawnDaemon(dir);
    }
    try {
      const api = new Client(`${daemon.url}/api/v1/families/home`, key);
      for (const i of [...unknown]) {
        const r = await api.post(
          '/people',
          { name: `person ${i}` },
          { headers: { 'idempotency-key': `create-${i}` } },
        );
        expect(r.status).to.equal(201);
        answered.add(i);
      }
      const names = (await api.get('/people')).body.people.map(
        (p: { name: string }) => p.name,
      ) as string[];
      const counts = new Map<string, number>();
      for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1);
      const duplicated = [...counts].filter(([, c]) => c > 1);
      expect(duplicated, 'changes made twice').to.deep.equal([]);
      for (const i of answered) expect(counts.get(`person ${i}`), `person ${i}`).to.equal(1);
      expect(answered.size).to.be.greaterThan(300);
    } finally {
      daemon.proc.kill('SIGTERM');
      await daemon.exited;
    }
  });
});
