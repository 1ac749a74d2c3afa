import { expect } from 'chai';
import {
  chmodSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { tempDataDir } from '../helpers/server.js';
import { runCli, spawnDaemon } from '../helpers/child.js';
import { Store, STORE_FILE } from '../../src/store/store.js';

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

/** Every file and folder under `root` (itself included) with its mode. */
function modesUnder(root: string): Record<string, string> {
  const out: Record<string, string> = { '.': mode(root) };
  for (const name of readdirSync(root, { recursive: true }) as string[])
    out[name] = mode(join(root, name));
  return out;
}

describe('files the command line and the daemon write (store, backup, export)', function () {
  this.timeout(60_000);
  let root: string;
  let source: string;
  let umask: number;

  before(async () => {
    // The usual permissive umask, which children inherit: the modes below must not depend on it.
    umask = process.umask(0o022);
    root = tempDataDir();
    source = join(root, 'source');
    const r = await runCli(['family', 'create', 'smiths', '--data-dir', source]);
    expect(r.code, r.stderr).to.equal(0);
  });
  after(() => {
    process.umask(umask);
    rmSync(root, { recursive: true, force: true });
  });

  it('family create makes the data folder 0700 and the store and its lock file 0600', async () => {
    const dir = join(root, 'cli', 'data');
    const r = await runCli(['family', 'create', 'jones', '--data-dir', dir]);
    expect(r.code, r.stderr).to.equal(0);
    expect(modesUnder(join(root, 'cli'))).to.deep.equal({
      '.': '700',
      data: '700',
      [join('data', STORE_FILE)]: '600',
      [join('data', `${STORE_FILE}-lock`)]: '600',
    });
  });

  it('serve on a new folder creates the same private store', async () => {
    const dir = join(root, 'daemon', 'data');
    const d = await spawnDaemon(dir);
    try {
      expect(d.bootstrapKey).to.be.a('string');
      expect(modesUnder(join(root, 'daemon'))).to.deep.equal({
        '.': '700',
        data: '700',
        [join('data', STORE_FILE)]: '600',
        [join('data', `${STORE_FILE}-lock`)]: '600',
      });
    } finally {
      d.proc.kill('SIGTERM');
      await d.exited;
    }
  });

  it('keeps the mode of a data folder the operator made, and still makes the files 0600', async () => {
    const dir = join(root, 'operator');
    mkdirSync(dir);
    chmodSync(dir, 0o750);
    expect((await runCli(['family', 'create', 'a', '--data-dir', dir])).code).to.equal(0);
    expect(modesUnder(dir)).to.deep.equal({
      '.': '750',
      [STORE_FILE]: '600',
      [`${STORE_FILE}-lock`]: '600',
    });
  });

  it('Store.open makes the files private without the command line narrowing the umask', async () => {
    const dir = join(root, 'library', 'data');
    const store = Store.open(dir);
    await store.close();
    expect(modesUnder(join(root, 'library'))).to.deep.equal({
      '.': '700',
      data: '700',
      [join('data', STORE_FILE)]: '600',
      [join('data', `${STORE_FILE}-lock`)]: '600',
    });
    // The umask of the calling process is back as it was.
    expect(process.umask(0o022)).to.equal(0o022);
  });

  it('backup writes its folders 0700 and the copy 0600', async () => {
    const target = join(root, 'backups', 'monday');
    const r = await runCli(['backup', target, '--data-dir', source, '--json']);
    expect(r.code, r.stderr).to.equal(0);
    expect(JSON.parse(r.stdout).backup).to.equal(join(target, STORE_FILE));
    expect(modesUnder(join(root, 'backups'))).to.deep.equal({
      '.': '700',
      monday: '700',
      [join('monday', STORE_FILE)]: '600',
    });
    const copy = Store.open(target);
    try {
      expect(copy.listFamilies().map((f) => f.slug)).to.deep.equal(['smiths']);
    } finally {
      await copy.close();
    }
  });

  it('export --out writes the file 0600 in a new 0700 folder, and narrows a file it overwrites', async () => {
    const file = join(root, 'exports', 'smiths.json');
    const r = await runCli(['export', 'smiths', '--out', file, '--data-dir', source]);
    expect(r.code, r.stderr).to.equal(0);
    expect(modesUnder(join(root, 'exports'))).to.deep.equal({ '.': '700', 'smiths.json': '600' });
    expect(JSON.parse(readFileSync(file, 'utf8')).family.slug).to.equal('smiths');

    const shared = join(root, 'shared.json');
    writeFileSync(shared, 'an older, longer file that the export replaces entirely '.repeat(2000));
    chmodSync(shared, 0o644);
    expect(
      (await runCli(['export', 'smiths', '--out', shared, '--data-dir', source])).code,
    ).to.equal(0);
    expect(mode(shared)).to.equal('600');
    expect(JSON.parse(readFileSync(shared, 'utf8')).family.slug).to.equal('smiths');
  });

  it('export --out to a path that cannot be written refuses with one line naming it', async () => {
    const blocker = join(root, 'a-file');
    writeFileSync(blocker, '');
    const r = await runCli([
      'export',
      'smiths',
      '--out',
      join(blocker, 'x.json'),
      '--data-dir',
      source,
    ]);
    expect(r.code).to.equal(1);
    expect(r.stderr.trim().split('\n')).to.deep.equal([
      `cannot create the folder ${blocker}: a file of that name is in the way (EEXIST)`,
    ]);
  });

  it('import restores into a new folder, creating a private store there', async () => {
    const file = join(root, 'to-import.json');
    expect((await runCli(['export', 'smiths', '--out', file, '--data-dir', source])).code).to.equal(
      0,
    );
    const dir = join(root, 'restored', 'data');
    const r = await runCli(['import', file, '--data-dir', dir, '--json']);
    expect(r.code, r.stderr).to.equal(0);
    expect(JSON.parse(r.stdout).family.slug).to.equal('smiths');
    expect(modesUnder(join(root, 'restored'))).to.deep.equal({
      '.': '700',
      data: '700',
      [join('data', STORE_FILE)]: '600',
      [join('data', `${STORE_FILE}-lock`)]: '600',
    });
  });
});
