import { expect } from 'chai';
import {
  activePerson,
  decideCreatePerson,
  decideDeletePerson,
  decideUpdatePerson,
  listPeople,
  personView,
} from '../../../src/domain/people/people.js';
import { Invalid, NotFound } from '../../../src/domain/shared/errors.js';
import { fixture } from '../collections/fixture.js';

describe('people (domain)', () => {
  it('creates an adult by default, with displayName and role derived', () => {
    const f = fixture();
    const d = f.run((s, c) =>
      decideCreatePerson(s, { name: ' Ana Lima ', familiarName: 'Mum' }, c),
    );
    expect(personView(d.result)).to.include({
      name: 'Ana Lima',
      kind: 'adult',
      role: 'adult',
      displayName: 'Mum',
      email: null,
    });
    expect(d.events[0].type).to.equal('person.created');
  });

  it('checks email and phone formats', () => {
    const f = fixture();
    expect(() =>
      decideCreatePerson(f.state, { name: 'A', email: 'not-an-email' }, f.ctx()),
    ).to.throw(Invalid, /email/);
    expect(() => decideCreatePerson(f.state, { name: 'A', phone: 'call me' }, f.ctx())).to.throw(
      Invalid,
      /phone/,
    );
    expect(() =>
      decideCreatePerson(
        f.state,
        { name: 'A', email: 'a@b.co', phone: '+44 20 7946 0958' },
        f.ctx(),
      ),
    ).to.not.throw();
  });

  it('clears nullable fields on update and logs the previous version', () => {
    const f = fixture();
    const p = f.run((s, c) =>
      decideCreatePerson(s, { name: 'Ana', familiarName: 'Mum', email: 'a@b.co' }, c),
    ).result;
    const d = f.run((s, c) =>
      decideUpdatePerson(s, p.id, { familiarName: null, email: null, kind: 'caregiver' }, c),
    );
    expect(personView(d.result)).to.include({
      displayName: 'Ana',
      familiarName: null,
      email: null,
      role: 'caregiver',
    });
    expect(d.events[0].previous).to.include({ displayName: 'Mum' });
  });

  it('soft-deletes: hidden from lists and from activePerson, 404 afterwards', () => {
    const f = fixture();
    const p = f.run((s, c) => decideCreatePerson(s, { name: 'Ana' }, c)).result;
    const d = f.run((s, c) => decideDeletePerson(s, p.id, c));
    expect(d.events[0].object).to.include({ id: p.id, deletedAt: '2026-11-22T08:30:00.000Z' });
    expect(listPeople(f.state)).to.have.length(0);
    expect(activePerson(f.state, p.id)).to.equal(undefined);
    expect(f.state.get('people', p.id)).to.include({ name: 'Ana' });
    expect(() => decideUpdatePerson(f.state, p.id, { name: 'B' }, f.ctx())).to.throw(NotFound);
    expect(() => decideDeletePerson(f.state, p.id, f.ctx())).to.throw(NotFound);
  });
});
