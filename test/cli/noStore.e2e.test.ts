import { expect } from 'chai';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDataDir } from '../helpers/server.js';
import { runCli } from '../helpers/child.js';
import { STORE_FILE } from '../../src/store/store.js';

const refusal = (dir: string) =>
  `no store in ${dir} (no ${STORE_FILE} there); check --data-dir, HOUSEHOLD_DATA_DIR or storage.dataDir ` +
  '(only serve, family create and import start a new store)';

describe('the command line pointed at a folder without a store', function () {
  this.timeout(60_000);
  let root: string;
  before(() => {
    root = tempDataDir();
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const readers: [string, string[]][] = [
    ['backup', ['backup', 'BACKUP']],
    ['export', ['export', 'home']],
    ['export --out', ['export', 'home', '--out', 'EXPORT']],
    ['family list', ['family', 'list']],
    ['key create', ['key', 'create', 'home']],
    ['key list', ['key', 'list', 'home']],
    ['key revoke', ['key', 'revoke', 'abcdefghijkl']],
  ];

  for (const [name, args] of readers) {
    it(`${name} refuses a mistyped --data-dir with one line naming it, exit 2, and creates nothing`, async () => {
      const typo = join(root, `typo-${name.replace(/\W+/g, '-')}`);
      const out = join(root, `out-${name.replace(/\W+/g, '-')}`);
      const r = await runCli([
        ...args.map((a) => (a === 'BACKUP' || a === 'EXPORT' ? out : a)),
        '--data-dir',
        typo,
        '--json',
      ]);
      expect(r.code).to.equal(2);
      expect(r.stderr.trim().split('\n')).to.deep.equal([refusal(typo)]);
      expect(r.stdout).to.equal('');
      expect(existsSync(typo), 'data folder created').to.equal(false);
      expect(existsSync(out), 'backup or export written').to.equal(false);
    });
  }

  it('refuses an existing folder that holds no store and leaves it empty', async () => {
    const empty = join(root, 'empty');
    mkdirSync(empty);
    for (const [, args] of readers) {
      const r = await runCli([
        ...args.map((a) => (a === 'BACKUP' || a === 'EXPORT' ? join(root, 'never') : a)),
        '--data-dir',
        empty,
      ]);
      expect(r.code, args.join(' ')).to.equal(2);
      expect(r.stderr.trim(), args.join(' ')).to.equal(refusal(empty));
    }
    expect(readdirSync(empty)).to.deep.equal([]);
    expect(existsSync(join(root, 'never'))).to.equal(false);
  });

  it('refuses a data folder under a file (it cannot exist) the same way', async () => {
    const file = join(root, 'plain-file');
    writeFileSync(file, '');
    const r = await runCli(['family', 'list', '--data-dir', join(file, 'data')]);
    expect(r.code).to.equal(2);
    expect(r.stderr.trim()).to.equal(refusal(join(file, 'data')));
  });

  it('still answers usage errors first: a missing argument is named before the missing store', async () => {
    const typo = join(root, 'typo-usage');
    const r = await runCli(['backup', '--data-dir', typo]);
    expect(r.code).to.equal(2);
    expect(r.stderr).to.match(/^backup needs a target directory\n/);
    expect(existsSync(typo)).to.equal(false);
  });

  it('family create starts a new store in a new folder (the one command besides serve and import that may)', async () => {
    const dir = join(root, 'new', 'data');
    const r = await runCli(['family', 'create', 'smiths', '--data-dir', dir, '--json']);
    expect(r.code, r.stderr).to.equal(0);
    expect(JSON.parse(r.stdout).family.slug).to.equal('smiths');
    const list = await runCli(['family', 'list', '--data-dir', dir, '--json']);
    expect(JSON.parse(list.stdout).families.map((f: { slug: string }) => f.slug)).to.deep.equal([
      'smiths',
    ]);
  });

  it('family create where the folder cannot be made ends with one line naming it, exit 78', async () => {
    const file = join(root, 'another-file');
    writeFileSync(file, '');
    const r = await runCli(['family', 'create', 'smiths', '--data-dir', join(file, 'data')]);
    expect(r.code).to.equal(78);
    expect(r.stderr.trim().split('\n')).to.deep.equal([
      `cannot create the data folder ${join(file, 'data')}: a part of the path is a file, not a folder (ENOTDIR)`,
    ]);
  });
});
