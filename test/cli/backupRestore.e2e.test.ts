/**
 * The README's "Backup and restore", step by step with the real executable: back up while
 * serving, stop, copy the backup back over the store, start — and the household is exactly as
 * it was at the backup (later writes gone, keys working).
 */
import { expect } from 'chai';
import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tempDataDir } from '../helpers/server.js';
import { runCli, spawnDaemon } from '../helpers/child.js';

describe('backup and restore as the README describes it', function () {
  this.timeout(60_000);

  it('backup while serving; stop, copy household.mdb back, start: the household as it was at the backup', async () => {
    const root = tempDataDir();
    const data = join(root, 'data');
    try {
      const first = await spawnDaemon(data);
      const key = first.bootstrapKey!;
      const people = async (url: string) => {
        const r = await fetch(`${url}/api/v1/families/home/people`, {
          headers: { 'x-api-key': key },
        });
        expect(r.status).to.equal(200);
        return ((await r.json()) as { people: { displayName: string }[] }).people.map(
          (p) => p.displayName,
        );
      };
      const add = (url: string, name: string) =>
        fetch(`${url}/api/v1/families/home/people`, {
          method: 'POST',
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          body: JSON.stringify({ name }),
        });
      try {
        expect((await add(first.url, 'Ana')).status).to.equal(201);
        const backup = await runCli([
          'backup',
          join(root, 'backups', 'monday'),
          '--data-dir',
          data,
          '--json',
        ]);
        expect(backup.code, backup.stderr).to.equal(0);
        expect((await add(first.url, 'Ben')).status).to.equal(201);
        expect(await people(first.url)).to.deep.equal(['Ana', 'Ben']);
      } finally {
        first.proc.kill('SIGTERM'); // 1. stop
        expect((await first.exited).code).to.equal(0);
      }
      copyFileSync(join(root, 'backups', 'monday', 'household.mdb'), join(data, 'household.mdb')); // 2. copy back
      const second = await spawnDaemon(data); // 3. start
      try {
        expect(second.bootstrapKey, 'no new first family').to.equal(null);
        expect(await people(second.url)).to.deep.equal(['Ana']);
        expect((await add(second.url, 'Cy')).status).to.equal(201);
      } finally {
        second.proc.kill('SIGTERM');
        await second.exited;
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
