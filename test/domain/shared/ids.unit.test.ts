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
  it('carry the low 49 bits of the random bytes and count up within a millisecond, across the 25-bit halves', async () => {
    const { createIdGenerator } = await import('../../../src/domain/shared/ids.js');
    const t = 1_790_000_000_000;
    const gen = createIdGenerator(
      () => t,
      () => Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe]),
    );
    const first = gen('ent');
    // 2^49 - 2: the top bit of the 50 stays clear, so the first character is "f" (01111).
    expect(first.slice(-10)).to.equal('fzzzzzzzzy');
    const second = gen('ent');
    const third = gen('ent');
    expect(second.slice(-10)).to.equal('fzzzzzzzzz');
    // The carry from the low 25 bits into the high ones.
    expect(third.slice(-10)).to.equal('g000000000');
    expect(second > first && third > second).to.equal(true);
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
