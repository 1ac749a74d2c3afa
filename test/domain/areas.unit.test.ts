/**
 * The areas' composition is one explicit list (src/domain/areas.ts), not imports made for their
 * side effects: every area folder is in it, and a family's seed comes from it with nothing else
 * imported first.
 */
import { expect } from 'chai';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AREAS, seedRecords } from '../../src/domain/areas.js';
import { BUILTINS } from '../../src/domain/collections/builtins.js';

const domain = join(resolve(dirname(fileURLToPath(import.meta.url)), '../../..'), 'src/domain');

describe('domain areas', () => {
  it('lists every area folder of src/domain', () => {
    const folders = readdirSync(domain)
      .filter((n) => n !== 'shared' && n !== 'i18n' && statSync(join(domain, n)).isDirectory())
      .sort();
    expect(Object.keys(AREAS).sort()).to.deep.equal(folders);
  });

  it('seeds a new family with the built-in collections from the list alone', () => {
    const family = {
      id: 'fam_1',
      slug: 'f',
      name: 'F',
      timezone: 'Europe/Berlin',
      createdAt: '2026-11-24T00:00:00.000Z',
    };
    const seeded = seedRecords(family, family.createdAt);
    expect(seeded.map((c) => `${c.table}/${c.id}`)).to.deep.equal(
      BUILTINS.map((b) => `collections/${b.key}`),
    );
    expect(seeded.every((c) => (c.value as { builtin?: boolean }).builtin === true)).to.equal(true);
  });
});
