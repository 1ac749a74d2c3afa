import { expect } from 'chai';
import {
  coverSpan,
  itemWhenText,
  phaseOf,
  planTiming,
  whenText,
} from '../../../src/domain/plans/timing.js';
import { decideCreatePlan, decideLinkEvent } from '../../../src/domain/plans/plans.js';
import { decideCreatePoll } from '../../../src/domain/plans/polls.js';
import { decideSettlePoll } from '../../../src/domain/plans/pollSettle.js';
import { decideCreateEvent } from '../../../src/domain/calendar/events.js';
import { getPlan } from '../../../src/domain/plans/views.js';
import { plansFixture } from './fixture.js';

describe('plan timing (domain)', () => {
  describe('whenText', () => {
    it('writes one day with its weekday', () => {
      expect(whenText({ start: '2026-06-13', end: '2026-06-13' })).to.equal('Sat, Jun 13, 2026');
    });
    it('writes a span inside one month, across months and across years', () => {
      expect(whenText({ start: '2026-06-13', end: '2026-06-15' })).to.equal('Jun 13 – 15, 2026');
      expect(whenText({ start: '2026-06-30', end: '2026-07-02' })).to.equal('Jun 30 – Jul 2, 2026');
      expect(whenText({ start: '2026-12-30', end: '2027-01-02' })).to.equal(
        'Dec 30, 2026 – Jan 2, 2027',
      );
    });
    it('says "Not scheduled" without a span', () => {
      expect(whenText(null)).to.equal('Not scheduled');
    });
  });

  it('writes single items with their times', () => {
    expect(
      itemWhenText({ date: '2026-06-13', endDate: null, time: '15:30', endTime: '17:00' }),
    ).to.equal('Sat, Jun 13, 2026, 3:30 PM – 5:00 PM');
    expect(
      itemWhenText({ date: '2026-06-13', endDate: '2026-06-14', time: '20:00', endTime: '02:00' }),
    ).to.equal('Sat, Jun 13, 2026, 8:00 PM – Sun, Jun 14, 2026, 2:00 AM');
    expect(
      itemWhenText({ date: '2026-06-13', endDate: '2026-06-15', time: null, endTime: null }),
    ).to.equal('Jun 13 – 15, 2026');
  });

  it('derives the phase from today and the covering span', () => {
    const span = coverSpan([
      { start: '2026-06-14', end: '2026-06-15' },
      { start: '2026-06-13', end: '2026-06-13' },
    ]);
    expect(span).to.deep.equal({ start: '2026-06-13', end: '2026-06-15' });
    expect(phaseOf(null, '2026-06-01')).to.equal('unscheduled');
    expect(phaseOf(span, '2026-06-12')).to.equal('upcoming');
    expect(phaseOf(span, '2026-06-13')).to.equal('happening');
    expect(phaseOf(span, '2026-06-15')).to.equal('happening');
    expect(phaseOf(span, '2026-06-16')).to.equal('past');
  });

  it('reads today in the family time zone', () => {
    const f = plansFixture('2026-06-12T22:30:00.000Z', 'Europe/Berlin'); // already Jun 13 in Berlin
    const plan = f.run((s, c) => decideCreatePlan(s, { title: 'Fair' }, c)).result;
    const ev = f.run((s, c) =>
      decideCreateEvent(s, { title: 'Fair', date: '2026-06-13', allDay: true }, c),
    ).result;
    f.run((s, c) => decideLinkEvent(s, plan.id, { eventId: ev.id }, c));
    const p = getPlan(f.state, plan.id)!;
    expect(planTiming(f.state, p, new Date('2026-06-12T22:30:00.000Z'))).to.include({
      phase: 'happening',
      when: 'Sat, Jun 13, 2026',
    });
    expect(planTiming(f.state, p, new Date('2026-06-12T21:30:00.000Z')).phase).to.equal('upcoming');
    f.state.family.timezone = 'UTC';
    expect(planTiming(f.state, p, new Date('2026-06-12T22:30:00.000Z')).phase).to.equal('upcoming');
  });

  it('counts settled dated options even when their event is gone, and ignores open polls', () => {
    const f = plansFixture('2026-05-01T08:00:00.000Z');
    const plan = f.run((s, c) => decideCreatePlan(s, { title: 'Trip' }, c)).result;
    const poll = f.run((s, c) =>
      decideCreatePoll(
        s,
        plan.id,
        {
          question: 'When?',
          options: [{ date: '2026-07-01', endDate: '2026-07-03' }, { label: 'Later' }],
        },
        c,
      ),
    ).result;
    expect(
      planTiming(f.state, getPlan(f.state, plan.id)!, new Date('2026-05-01T08:00:00Z')).when,
    ).to.equal('Not scheduled');
    f.run((s, c) => decideSettlePoll(s, plan.id, poll.id, poll.options[0].id, c));
    f.state.apply([
      { table: 'entries', id: getPlan(f.state, plan.id)!.polls[0].settledEventId!, value: null },
    ]);
    expect(
      planTiming(f.state, getPlan(f.state, plan.id)!, new Date('2026-05-01T08:00:00Z')),
    ).to.include({ when: 'Jul 1 – 3, 2026', phase: 'upcoming' });
  });
});
