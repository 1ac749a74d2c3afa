import { expect } from 'chai';
import { createIdGenerator, hasPrefix } from '../../../src/domain/shared/ids.js';

describe('ids', () => {
  it('are a prefix and 20 base32 characters, sortable by creation', () => {
    let t = 1_790_000_000_000;
    const gen = createIdGenerator(
      () => t,
      (n) => new Uint8Array(n).fill(255),
    );
    const ids: string[] = [];
    for (let i = 0; i < 100; i++) {
      ids.push(gen('ent'));
      if (i % 10 === 0) t++;
    }
    for (const id of ids) expect(id).to.match(/^ent_[0-9a-hjkmnp-tv-z]{20}$/);
    expect([...ids].sort()).to.deep.equal(ids);
    expect(new Set(ids).size).to.equal(100);
    expect(hasPrefix(ids[0], 'ent')).to.equal(true);
    expect(hasPrefix(ids[0], 'person')).to.equal(false);
  });

  it('stay ordered when the clock steps back', () => {
    let t = 2_000_000;
    const gen = createIdGenerator(
      () => t,
      (n) => new Uint8Array(n),
    );
    const a = gen('plan');
    t -= 1000;
    const b = gen('plan');
    expect(b > a).to.equal(true);
  });
});

describe('ids (random part)', () => {
  it('carry the low 49 bits of the random bytes and grow by a random step within a millisecond, across the 25-bit halves', async () => {
    const { createIdGenerator } = await import('../../../src/domain/shared/ids.js');
    const t = 1_790_000_000_000;
    // The first id's 7 bytes, then each step's 3 (low 20 bits: 0x00001 → a step of 2; 0x0fffff → 2^20).
    const draws = [
      [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfc],
      [0x00, 0x00, 0x01],
      [0xff, 0xff, 0xff],
    ];
    const gen = createIdGenerator(
      () => t,
      () => Uint8Array.from(draws.shift()!),
    );
    const value = (id: string) =>
      [...id.slice(-10)].reduce(
        (v, c) => v * 32 + '0123456789abcdefghjkmnpqrstvwxyz'.indexOf(c),
        0,
      );
    const first = gen('ent');
    // 2^49 - 4: the top bit of the 50 stays clear, so the first character is "f" (01111).
    expect(first.slice(-10)).to.equal('fzzzzzzzzw');
    const second = gen('ent');
    const third = gen('ent');
    expect(value(second) - value(first)).to.equal(2);
    // The step carries from the low 25 bits into the high ones.
    expect(value(third) - value(second)).to.equal(2 ** 20);
    expect(third.slice(-10, -5)).to.equal('g0000');
    expect(second > first && third > second).to.equal(true);
  });

  it('made together, are not neighbours: one id shown does not give the next away', async () => {
    const { createIdGenerator } = await import('../../../src/domain/shared/ids.js');
    const { randomBytes } = await import('node:crypto');
    const gen = createIdGenerator(
      () => 1_790_000_000_000,
      (n) => randomBytes(n),
    );
    const ids = Array.from({ length: 50 }, () => gen('ent'));
    const value = (id: string) =>
      [...id.slice(-10)].reduce(
        (v, c) => v * 32 + '0123456789abcdefghjkmnpqrstvwxyz'.indexOf(c),
        0,
      );
    const steps = ids.slice(1).map((id, i) => value(id) - value(ids[i]));
    expect(steps.every((d) => d >= 1 && d <= 2 ** 20)).to.equal(true);
    expect(steps.filter((d) => d === 1).length).to.be.below(3);
    expect([...ids].sort()).to.deep.equal(ids);
  });

  it('pooledRandom hands out fresh bytes and refills when the pool runs out', async () => {
    const { pooledRandom } = await import('../../../src/domain/shared/ids.js');
    let fills = 0;
    let next = 0;
    const take = pooledRandom((b) => {
      fills++;
      for (let i = 0; i < b.length; i++) b[i] = next++ % 256;
    }, 16);
    const a = take(7);
    const b = take(7);
    const c = take(7); // 21 > 16: a refill
    expect(Array.from(a)).to.deep.equal([0, 1, 2, 3, 4, 5, 6]);
    expect(Array.from(b)).to.deep.equal([7, 8, 9, 10, 11, 12, 13]);
    expect(Array.from(c)).to.deep.equal([16, 17, 18, 19, 20, 21, 22]);
    expect(fills).to.equal(2);
    a[0] = 99;
    expect(take(1)[0]).to.equal(23);
  });
});
