import { expect } from 'chai';
import { decideCreatePlan } from '../../../src/domain/plans/plans.js';
import {
  decideAddOption,
  decideClearVote,
  decideCreatePoll,
  decideDeleteOption,
  decideDeletePoll,
  decideReplaceOption,
  decideUpdatePoll,
  decideVote,
} from '../../../src/domain/plans/polls.js';
import { decideReopenPoll, decideSettlePoll } from '../../../src/domain/plans/pollSettle.js';
import { getPlan, pollView } from '../../../src/domain/plans/views.js';
import { decideDeleteEvent, getEvent } from '../../../src/domain/calendar/events.js';
import { decideCreatePerson, decideDeletePerson } from '../../../src/domain/people/people.js';
import { Conflict, Forbidden, Invalid, NotFound } from '../../../src/domain/shared/errors.js';
import { plansFixture } from './fixture.js';

function setup() {
  const f = plansFixture();
  const plan = f.run((s, c) => decideCreatePlan(s, { title: 'Lake weekend' }, c)).result;
  const poll = f.run((s, c) =>
    decideCreatePoll(
      s,
      plan.id,
      {
        question: 'Which weekend?',
        options: [
          { label: 'Early', date: '2026-06-13', endDate: '2026-06-15' },
          { label: 'Late', date: '2026-06-27', time: '15:30', endTime: '18:00' },
          { label: 'Whenever' },
        ],
      },
      c,
    ),
  ).result;
  const ana = f.run((s, c) => decideCreatePerson(s, { name: 'Ana' }, c)).result;
  const bo = f.run((s, c) => decideCreatePerson(s, { name: 'Bo' }, c)).result;
  const current = () => getPlan(f.state, plan.id)!.polls.find((p) => p.id === poll.id)!;
  return { f, plan, poll, ana, bo, current, opt: (i: number) => poll.options[i].id };
}

describe('plan polls (domain)', () => {
  describe('options', () => {
    it('shows times as 3:30 PM text and unset fields as null', () => {
      const { poll } = setup();
      const v = pollView(poll, null);
      expect(v.options[1]).to.deep.equal({
        optionId: poll.options[1].id,
        label: 'Late',
        date: '2026-06-27',
        endDate: null,
        time: '3:30 PM',
        endTime: '6:00 PM',
        votes: 0,
      });
      expect(v.options[2]).to.include({ label: 'Whenever', date: null, time: null });
      expect(v).to.include({ status: 'open', settledOptionId: null, myVoteOptionId: null });
    });

    it('needs a label or a date, and dates in order, with issue paths', () => {
      const { f, plan } = setup();
      const make = (options: object[]) =>
        decideCreatePoll(f.state, plan.id, { question: 'Q', options: options }, f.ctx());
      const issue = (fn: () => unknown) => {
        try {
          fn();
        } catch (e) {
          return (e as Invalid).issues![0].path;
        }
        throw new Error('no error');
      };
      expect(issue(() => make([{ label: 'a' }, {}]))).to.deep.equal(['options', 1]);
      expect(issue(() => make([{ label: 'a' }, { label: '  ' }]))).to.deep.equal(['options', 1]);
      expect(issue(() => make([{ label: 'a' }, { label: 'b', time: '10:00' }]))).to.deep.equal([
        'options',
        1,
        'time',
      ]);
      expect(
        issue(() => make([{ date: '2026-06-13', endDate: '2026-06-12' }, { label: 'b' }])),
      ).to.deep.equal(['options', 0, 'endDate']);
      expect(
        issue(() =>
          make([{ date: '2026-06-13', time: '10:00', endTime: '09:00' }, { label: 'b' }]),
        ),
      ).to.deep.equal(['options', 0, 'endTime']);
      expect(
        issue(() => make([{ date: '2026-06-13', endTime: '09:00' }, { label: 'b' }])),
      ).to.deep.equal(['options', 0, 'endTime']);
      expect(() => make([{ label: 'a' }])).to.throw(Invalid);
      expect(() => make(Array.from({ length: 13 }, (_, i) => ({ label: `o${i}` })))).to.throw(
        Invalid,
      );
      expect(() =>
        make([
          { date: '2026-06-13', time: '22:00', endDate: '2026-06-14', endTime: '02:00' },
          { label: 'b' },
        ]),
      ).to.not.throw();
    });

    it('adds up to 12 options (a 13th → 409), replaces one wholly, deletes one with its votes', () => {
      const { f, plan, poll, ana, current, opt } = setup();
      f.actAs(ana.id);
      f.run((s, c) => decideVote(s, plan.id, poll.id, opt(2), c));
      const added = f.run((s, c) => decideAddOption(s, plan.id, poll.id, { label: 'Fourth' }, c));
      expect(added.events.map((e) => e.type)).to.deep.equal(['plan.updated']);
      for (let i = 4; i < 12; i++)
        f.run((s, c) => decideAddOption(s, plan.id, poll.id, { label: `o${i}` }, c));
      expect(current().options).to.have.length(12);
      expect(() =>
        decideAddOption(f.state, plan.id, poll.id, { label: 'thirteenth' }, f.ctx()),
      ).to.throw(Conflict);
      const replaced = f.run((s, c) =>
        decideReplaceOption(s, plan.id, poll.id, opt(1), { date: '2026-07-04' }, c),
      );
      expect(replaced.result).to.deep.include({
        label: null,
        date: '2026-07-04',
        time: null,
        endTime: null,
      });
      expect(replaced.events.map((e) => e.type)).to.deep.equal(['plan.updated']);
      expect(current().votes[ana.id]).to.equal(opt(2));
      f.run((s, c) => decideDeleteOption(s, plan.id, poll.id, opt(2), c));
      expect(current().votes).to.deep.equal({});
      expect(() => decideDeleteOption(f.state, plan.id, poll.id, 'option_nope', f.ctx())).to.throw(
        NotFound,
      );
    });

    it('keeps at least two options', () => {
      const { f, plan, poll, opt } = setup();
      f.run((s, c) => decideDeleteOption(s, plan.id, poll.id, opt(2), c));
      expect(() => decideDeleteOption(f.state, plan.id, poll.id, opt(1), f.ctx())).to.throw(
        Conflict,
      );
    });
  });

  describe('votes', () => {
    it('one vote per person; voting again moves it; clearing removes it', () => {
      const { f, plan, poll, ana, bo, current, opt } = setup();
      f.actAs(ana.id);
      const d = f.run((s, c) => decideVote(s, plan.id, poll.id, opt(0), c));
      expect(d.events[0]).to.deep.include({ type: 'plan.poll.vote.cast' });
      expect(d.events[0].object).to.include({ planId: plan.id, myVoteOptionId: opt(0) });
      f.actAs(bo.id);
      f.run((s, c) => decideVote(s, plan.id, poll.id, opt(0), c));
      f.run((s, c) => decideVote(s, plan.id, poll.id, opt(1), c));
      expect(pollView(current(), bo.id).options.map((o) => o.votes)).to.deep.equal([1, 1, 0]);
      expect(pollView(current(), bo.id).myVoteOptionId).to.equal(opt(1));
      expect(pollView(current(), ana.id).myVoteOptionId).to.equal(opt(0));
      expect(f.run((s, c) => decideVote(s, plan.id, poll.id, opt(1), c)).changes).to.deep.equal([]);
      const cleared = f.run((s, c) => decideClearVote(s, plan.id, poll.id, c));
      expect(cleared.events[0].object).to.include({ myVoteOptionId: null });
      expect(pollView(current(), null).options.map((o) => o.votes)).to.deep.equal([1, 0, 0]);
      expect(f.run((s, c) => decideClearVote(s, plan.id, poll.id, c)).changes).to.deep.equal([]);
      expect(() => decideVote(f.state, plan.id, poll.id, 'option_nope', f.ctx())).to.throw(
        NotFound,
      );
    });

    it('needs a key that acts for an active person (403)', () => {
      const { f, plan, poll, ana, opt } = setup();
      f.actAs(null);
      expect(() => decideVote(f.state, plan.id, poll.id, opt(0), f.ctx())).to.throw(Forbidden);
      expect(() => decideClearVote(f.state, plan.id, poll.id, f.ctx())).to.throw(Forbidden);
      f.run((s, c) => decideDeletePerson(s, ana.id, c));
      f.actAs(ana.id);
      expect(() => decideVote(f.state, plan.id, poll.id, opt(0), f.ctx())).to.throw(Forbidden);
    });
  });

  describe('settle and reopen', () => {
    it('settles a dated option into a linked calendar event in one decision', () => {
      const { f, plan, poll, current, opt } = setup();
      const d = f.run((s, c) => decideSettlePoll(s, plan.id, poll.id, opt(1), c));
      expect(d.events.map((e) => e.type)).to.deep.equal([
        'calendar.event.created',
        'plan.event.linked',
        'plan.poll.settled',
      ]);
      expect(d.result).to.include({ addedToCalendar: true });
      const ev = getEvent(f.state, d.result.eventId!)!;
      expect(ev).to.deep.include({ title: 'Lake weekend', collectionKey: 'calendar' });
      expect(ev.data).to.deep.include({
        date: '2026-06-27',
        time: '15:30',
        endTime: '18:00',
        note: 'Late',
      });
      expect(getPlan(f.state, plan.id)!.events.map((l) => l.eventId)).to.deep.equal([ev.id]);
      expect(current()).to.include({
        status: 'settled',
        settledOptionId: opt(1),
        settledEventId: ev.id,
      });
    });

    it('settles an undated option without touching the calendar', () => {
      const { f, plan, poll, opt } = setup();
      const d = f.run((s, c) => decideSettlePoll(s, plan.id, poll.id, opt(2), c));
      expect(d.result).to.include({ addedToCalendar: false, eventId: null });
      expect(d.events.map((e) => e.type)).to.deep.equal(['plan.poll.settled']);
      expect(d.changes.map((c) => c.table)).to.deep.equal(['plans']);
    });

    it('refuses changes to a settled poll with 409, and settling it again', () => {
      const { f, plan, poll, ana, opt } = setup();
      f.run((s, c) => decideSettlePoll(s, plan.id, poll.id, opt(0), c));
      f.actAs(ana.id);
      for (const fn of [
        () => decideSettlePoll(f.state, plan.id, poll.id, opt(1), f.ctx()),
        () => decideUpdatePoll(f.state, plan.id, poll.id, { question: 'New?' }, f.ctx()),
        () => decideAddOption(f.state, plan.id, poll.id, { label: 'x' }, f.ctx()),
        () => decideReplaceOption(f.state, plan.id, poll.id, opt(1), { label: 'x' }, f.ctx()),
        () => decideDeleteOption(f.state, plan.id, poll.id, opt(1), f.ctx()),
        () => decideVote(f.state, plan.id, poll.id, opt(1), f.ctx()),
        () => decideClearVote(f.state, plan.id, poll.id, f.ctx()),
      ])
        expect(fn).to.throw(Conflict);
    });

    it('reopens: deletes the event it created (unlinking it everywhere), keeps votes; an open poll → 409', () => {
      const { f, plan, poll, ana, current, opt } = setup();
      expect(() => decideReopenPoll(f.state, plan.id, poll.id, f.ctx())).to.throw(Conflict);
      f.actAs(ana.id);
      f.run((s, c) => decideVote(s, plan.id, poll.id, opt(0), c));
      const settled = f.run((s, c) => decideSettlePoll(s, plan.id, poll.id, opt(0), c)).result;
      const d = f.run((s, c) => decideReopenPoll(s, plan.id, poll.id, c));
      expect(d.events.map((e) => e.type)).to.deep.equal([
        'calendar.event.deleted',
        'plan.event.unlinked',
        'plan.poll.reopened',
      ]);
      expect(d.changes.filter((c) => c.table === 'plans')).to.have.length(1);
      expect(d.result).to.deep.equal({
        poll: current(),
        removedFromCalendar: true,
        removedEventId: settled.eventId,
      });
      expect(getEvent(f.state, settled.eventId!)).to.equal(undefined);
      expect(getPlan(f.state, plan.id)!.events).to.deep.equal([]);
      expect(current()).to.include({ status: 'open', settledOptionId: null });
      expect(current().votes).to.deep.equal({ [ana.id]: opt(0) });
    });

    it('reopens without deleting anything when the event is already gone', () => {
      const { f, plan, poll, opt } = setup();
      const settled = f.run((s, c) => decideSettlePoll(s, plan.id, poll.id, opt(0), c)).result;
      f.run((s, c) => decideDeleteEvent(s, settled.eventId!, c));
      const d = f.run((s, c) => decideReopenPoll(s, plan.id, poll.id, c));
      expect(d.result).to.include({ removedFromCalendar: false, removedEventId: null });
      expect(d.events.map((e) => e.type)).to.deep.equal(['plan.poll.reopened']);
    });

    it("deletes a poll with its votes; a settled poll's event stays", () => {
      const { f, plan, poll, opt } = setup();
      const settled = f.run((s, c) => decideSettlePoll(s, plan.id, poll.id, opt(0), c)).result;
      const d = f.run((s, c) => decideDeletePoll(s, plan.id, poll.id, c));
      expect(d.events.map((e) => e.type)).to.deep.equal(['plan.poll.deleted']);
      expect(getPlan(f.state, plan.id)!.polls).to.deep.equal([]);
      expect(getEvent(f.state, settled.eventId!)).to.exist;
      expect(() => decideDeletePoll(f.state, plan.id, poll.id, f.ctx())).to.throw(NotFound);
    });
  });

  it('edits the question of an open poll, logged as plan.updated', () => {
    const { f, plan, poll, current } = setup();
    const d = f.run((s, c) =>
      decideUpdatePoll(s, plan.id, poll.id, { question: ' Which one? ' }, c),
    );
    expect(d.events.map((e) => e.type)).to.deep.equal(['plan.updated']);
    expect(current().question).to.equal('Which one?');
  });
});
