import { expect } from 'chai';
import { keptBy } from '../../src/door/kept.js';

describe('keptBy: what the door core keeps of repeated requests', () => {
  it('makes a value once per key, keeps undefined as an answer, and does not keep a throw', () => {
    const kept = keptBy<string | undefined>(8);
    let made = 0;
    const make = (v: string | undefined) => () => {
      made++;
      return v;
    };
    expect(kept('/a', make('door a'))).to.equal('door a');
    expect(kept('/a', make('other'))).to.equal('door a');
    expect(kept('/none', make(undefined))).to.equal(undefined);
    expect(kept('/none', make('late'))).to.equal(undefined);
    expect(made).to.equal(2);
    expect(() =>
      kept('/bad', () => {
        throw new Error('invalid');
      }),
    ).to.throw('invalid');
    expect(kept('/bad', make('valid now'))).to.equal('valid now');
  });

  it('starts over past its bound, so invented keys never grow it', () => {
    const kept = keptBy<number>(3);
    let made = 0;
    const make = () => ++made;
    for (const k of ['a', 'b', 'c']) kept(k, make);
    expect(kept('a', make)).to.equal(1);
    kept('d', make); // the fourth key: the three before are forgotten
    expect(kept('a', make)).to.equal(5);
    expect(kept('d', make)).to.equal(4);
  });
});
