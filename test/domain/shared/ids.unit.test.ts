import { expect } from 'chai';
import { createIdGenerator, hasPrefix } from '../../../src/domain/shared/ids.js';

describe('ids', () => {
  it('are a prefix and 20 base32 characters, sortable by creation', () => {
    let t = 1_790_000_000_000;
    const gen = createIdGenerator(() => t, (n) => new Uint8Array(n).fill(255));
    const ids: string[] = [];
    for (let i = 0; i < 100; i++) { ids.push(gen('ent')); if (i % 10 === 0) t++; }
    for (const id of ids) expect(id).to.match(/^ent_[0-9a-hjkmnp-tv-z]{20}$/);
    expect([...ids].sort()).to.deep.equal(ids);
    expect(new Set(ids).size).to.equal(100);
    expect(hasPrefix(ids[0], 'ent')).to.equal(true);
    expect(hasPrefix(ids[0], 'person')).to.equal(false);
  });

  it('stay ordered when the clock steps back', () => {
    let t = 2_000_000;
    const gen = createIdGenerator(() => t, (n) => new Uint8Array(n));
    const a = gen('plan');
    t -= 1000;
    const b = gen('plan');
    expect(b > a).to.equal(true);
  });
});
