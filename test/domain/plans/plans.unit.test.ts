import { expect } from 'chai';
import {
  decideCreatePlan,
  decideDeletePlan,
  decideLinkEvent,
  decideSharePlan,
  decideUnlinkEvent,
  decideUpdatePlan,
} from '../../../src/domain/plans/plans.js';
import {
  decideCreateNote,
  decideDeleteNote,
  decideUpdateNote,
} from '../../../src/domain/plans/notes.js';
import { getPlan, planDetail } from '../../../src/domain/plans/views.js';
import { decideCreateEvent, decideDeleteEvent } from '../../../src/domain/calendar/events.js';
import { decideCreatePerson, decideUpdatePerson } from '../../../src/domain/people/people.js';
import {
  decideCreateCollection,
  decideDeleteCollection,
} from '../../../src/domain/collections/collections.js';
import { Invalid, NotFound } from '../../../src/domain/shared/errors.js';
import { plansFixture } from './fixture.js';

const viewer = {
  now: new Date('2026-11-22T08:30:00.000Z'),
  publicUrl: 'http://share.test',
  personId: null,
};

describe('plans (domain)', () => {
  it('creates a plan with trimmed text; blank prose is no prose', () => {
    const f = plansFixture();
    const d = f.run((s, c) => decideCreatePlan(s, { title: '  Lake weekend ', prose: '   ' }, c));
    expect(d.result).to.include({ title: 'Lake weekend', prose: null, archived: false });
    expect(d.result.id).to.match(/^plan_/);
    expect(d.events.map((e) => e.type)).to.deep.equal(['plan.created']);
    expect(d.events[0].object).to.include({
      planId: d.result.id,
      when: 'Not scheduled',
      phase: 'unscheduled',
    });
    expect(() => decideCreatePlan(f.state, { title: '  ' }, f.ctx())).to.throw(Invalid, /title/);
  });

  it('updates only what is sent, clears prose with null, and logs nothing for no change', () => {
    const f = plansFixture();
    const p = f.run((s, c) => decideCreatePlan(s, { title: 'A', prose: 'x' }, c)).result;
    const d = f.run((s, c) => decideUpdatePlan(s, p.id, { prose: null, archived: true }, c));
    expect(d.result).to.include({ title: 'A', prose: null, archived: true });
    expect(d.events[0].type).to.equal('plan.updated');
    expect(d.events[0].previous).to.include({ archived: false, prose: 'x' });
    expect(f.run((s, c) => decideUpdatePlan(s, p.id, { archived: true }, c)).changes).to.deep.equal(
      [],
    );
    expect(() => decideUpdatePlan(f.state, p.id, {}, f.ctx())).to.throw(Invalid);
    expect(() => decideUpdatePlan(f.state, 'plan_nope', { title: 'x' }, f.ctx())).to.throw(
      NotFound,
    );
  });

  it('links an event once, with default flags; again changes nothing unless flags differ', () => {
    const f = plansFixture();
    const p = f.run((s, c) => decideCreatePlan(s, { title: 'A' }, c)).result;
    const ev = f.run((s, c) =>
      decideCreateEvent(s, { title: 'Swim', date: '2026-12-01', time: '10:00', where: 'Pool' }, c),
    ).result;
    const first = f.run((s, c) => decideLinkEvent(s, p.id, { eventId: ev.id }, c));
    expect(first.result.created).to.equal(true);
    expect(first.result.item).to.deep.include({
      eventId: ev.id,
      title: 'Swim',
      location: 'Pool',
      showDetailsOnShare: true,
      showLocationOnShare: false,
    });
    expect(first.result.item.timing).to.deep.equal({
      date: '2026-12-01',
      endDate: '2026-12-01',
      kind: 'timed',
      time: '10:00',
      endTime: null,
    });
    expect(first.events[0]).to.deep.include({ type: 'plan.event.linked' });
    const again = f.run((s, c) => decideLinkEvent(s, p.id, { eventId: ev.id }, c));
    expect(again.result.created).to.equal(false);
    expect(again.changes).to.deep.equal([]);
    const flags = f.run((s, c) =>
      decideLinkEvent(s, p.id, { eventId: ev.id, showLocationOnShare: true }, c),
    );
    expect(flags.events.map((e) => e.type)).to.deep.equal(['plan.updated']);
    expect(getPlan(f.state, p.id)!.events).to.have.length(1);
    expect(getPlan(f.state, p.id)!.events[0]).to.include({
      showDetailsOnShare: true,
      showLocationOnShare: true,
    });
    expect(() => decideLinkEvent(f.state, p.id, { eventId: 'ent_missing' }, f.ctx())).to.throw(
      NotFound,
    );
  });

  it('refuses to link an ordinary entry as an event', () => {
    const f = plansFixture();
    const p = f.run((s, c) => decideCreatePlan(s, { title: 'A' }, c)).result;
    f.state.apply([
      {
        table: 'entries',
        id: 'ent_chore',
        value: {
          id: 'ent_chore',
          collectionKey: 'chores',
          title: 'Bins',
          status: 'active',
          data: {},
          createdAt: '',
          updatedAt: '',
        },
      },
    ]);
    expect(() => decideLinkEvent(f.state, p.id, { eventId: 'ent_chore' }, f.ctx())).to.throw(
      NotFound,
    );
  });

  it('unlinks an event and leaves it on the calendar; not linked → 404', () => {
    const f = plansFixture();
    const p = f.run((s, c) => decideCreatePlan(s, { title: 'A' }, c)).result;
    const ev = f.run((s, c) =>
      decideCreateEvent(s, { title: 'Swim', date: '2026-12-01' }, c),
    ).result;
    f.run((s, c) => decideLinkEvent(s, p.id, { eventId: ev.id }, c));
    const d = f.run((s, c) => decideUnlinkEvent(s, p.id, ev.id, c));
    expect(d.changes.map((c) => c.table)).to.deep.equal(['plans']);
    expect(d.events[0]).to.deep.include({ type: 'plan.event.unlinked' });
    expect(f.state.get('entries', ev.id)).to.exist;
    expect(() => decideUnlinkEvent(f.state, p.id, ev.id, f.ctx())).to.throw(NotFound);
  });

  it('drops links in the same decision when events are deleted, one by one or with their calendar', () => {
    const f = plansFixture();
    const a = f.run((s, c) => decideCreatePlan(s, { title: 'A' }, c)).result;
    const b = f.run((s, c) => decideCreatePlan(s, { title: 'B' }, c)).result;
    const ev = f.run((s, c) =>
      decideCreateEvent(s, { title: 'Swim', date: '2026-12-01' }, c),
    ).result;
    f.run((s, c) => decideLinkEvent(s, a.id, { eventId: ev.id }, c));
    f.run((s, c) => decideLinkEvent(s, b.id, { eventId: ev.id }, c));
    const d = f.run((s, c) => decideDeleteEvent(s, ev.id, c));
    expect(d.events.map((e) => e.type)).to.deep.equal([
      'calendar.event.deleted',
      'plan.event.unlinked',
      'plan.event.unlinked',
    ]);
    expect(getPlan(f.state, a.id)!.events).to.deep.equal([]);
    expect(getPlan(f.state, b.id)!.events).to.deep.equal([]);

    f.run((s, c) => decideCreateCollection(s, { name: 'School', category: 'calendar' }, c));
    const school = f.run((s, c) =>
      decideCreateEvent(s, { title: 'Play', date: '2026-12-02', calendarKey: 'school' }, c),
    ).result;
    f.run((s, c) => decideLinkEvent(s, a.id, { eventId: school.id }, c));
    const gone = f.run((s, c) => decideDeleteCollection(s, 'school', c));
    expect(gone.events.map((e) => e.type)).to.include('plan.event.unlinked');
    expect(getPlan(f.state, a.id)!.events).to.deep.equal([]);
  });

  it('deletes a plan with its share index entry; events stay', () => {
    const f = plansFixture();
    const p = f.run((s, c) => decideCreatePlan(s, { title: 'A' }, c)).result;
    const ev = f.run((s, c) =>
      decideCreateEvent(s, { title: 'Swim', date: '2026-12-01' }, c),
    ).result;
    f.run((s, c) => decideLinkEvent(s, p.id, { eventId: ev.id }, c));
    f.run((s, c) => decideSharePlan(s, p.id, true, { token: 'pln_t', tokenHash: 'h1' }, c));
    const d = f.run((s, c) => decideDeletePlan(s, p.id, c));
    expect(d.changes).to.deep.equal([{ table: 'plans', id: p.id, value: null }]);
    expect(d.indexes).to.deep.equal([{ index: 'share-token', key: 'h1', familyId: null }]);
    expect(d.events.map((e) => e.type)).to.deep.equal(['plan.deleted']);
    expect(f.state.get('entries', ev.id)).to.exist;
  });

  it('shares with one token for good: disabling removes the index entry, enabling brings back the same address', () => {
    const f = plansFixture();
    const p = f.run((s, c) => decideCreatePlan(s, { title: 'A' }, c)).result;
    const on = f.run((s, c) =>
      decideSharePlan(s, p.id, true, { token: 'pln_first', tokenHash: 'h1' }, c),
    );
    expect(on.result).to.deep.equal({ enabled: true, shareUrl: 'http://share.test/p/pln_first' });
    expect(on.indexes).to.deep.equal([{ index: 'share-token', key: 'h1', familyId: 'fam_1' }]);
    expect(on.events[0]).to.deep.include({ type: 'plan.share.enabled' });
    const twice = f.run((s, c) =>
      decideSharePlan(s, p.id, true, { token: 'pln_other', tokenHash: 'h2' }, c),
    );
    expect(twice.changes).to.deep.equal([]);
    expect(twice.result.shareUrl).to.equal('http://share.test/p/pln_first');
    const off = f.run((s, c) =>
      decideSharePlan(s, p.id, false, { token: 'pln_x', tokenHash: 'h3' }, c),
    );
    expect(off.result).to.deep.equal({ enabled: false, shareUrl: null });
    expect(off.indexes).to.deep.equal([{ index: 'share-token', key: 'h1', familyId: null }]);
    expect(off.events[0]).to.deep.include({ type: 'plan.share.disabled' });
    const back = f.run((s, c) =>
      decideSharePlan(s, p.id, true, { token: 'pln_new', tokenHash: 'h4' }, c),
    );
    expect(back.result.shareUrl).to.equal('http://share.test/p/pln_first');
    expect(back.indexes![0].key).to.equal('h1');
  });

  describe('notes', () => {
    it("keeps order and author; the author is the person's display name, else the key's name", () => {
      const f = plansFixture();
      const p = f.run((s, c) => decideCreatePlan(s, { title: 'A' }, c)).result;
      const n1 = f.run((s, c) => decideCreateNote(s, p.id, { body: 'first' }, c)).result;
      const ana = f.run((s, c) =>
        decideCreatePerson(s, { name: 'Ana', familiarName: 'Mum' }, c),
      ).result;
      f.actAs(ana.id, 'Ana phone');
      const n2 = f.run((s, c) =>
        decideCreateNote(s, p.id, { body: 'second', showOnSharedPage: true }, c),
      ).result;
      f.actAs(null, 'Someone else');
      f.run((s, c) => decideUpdateNote(s, p.id, n1.id, { body: 'first, edited' }, c));
      const view = planDetail(f.state, getPlan(f.state, p.id)!, viewer);
      expect(view.notes.map((n) => [n.body, n.author, n.onSharedPage])).to.deep.equal([
        ['first, edited', 'Kitchen tablet', false],
        ['second', 'Mum', true],
      ]);
      f.run((s, c) => decideUpdatePerson(s, ana.id, { familiarName: 'Mama' }, c));
      expect(planDetail(f.state, getPlan(f.state, p.id)!, viewer).notes[1].author).to.equal('Mama');
      const del = f.run((s, c) => decideDeleteNote(s, p.id, n2.id, c));
      expect(del.events[0]).to.deep.include({ type: 'plan.note.deleted' });
      expect(() => decideDeleteNote(f.state, p.id, n2.id, f.ctx())).to.throw(NotFound);
      expect(() => decideUpdateNote(f.state, p.id, n1.id, {}, f.ctx())).to.throw(Invalid);
    });

    it('logs the note as the API shows it, with the previous version on update', () => {
      const f = plansFixture();
      const p = f.run((s, c) => decideCreatePlan(s, { title: 'A' }, c)).result;
      const n = f.run((s, c) => decideCreateNote(s, p.id, { body: 'x' }, c));
      expect(n.events[0]).to.deep.include({ type: 'plan.note.created' });
      expect(n.events[0].object).to.include({
        planId: p.id,
        noteId: n.result.id,
        body: 'x',
        onSharedPage: false,
      });
      const u = f.run((s, c) =>
        decideUpdateNote(s, p.id, n.result.id, { showOnSharedPage: true }, c),
      );
      expect(u.events[0].object).to.include({ onSharedPage: true });
      expect(u.events[0].previous).to.include({ onSharedPage: false });
    });
  });
});
