import { expect } from 'chai';
import {
  decideCreateEvent,
  decideDeleteEvent,
  eventTiming,
  eventView,
  getEvent,
  occurrenceView,
  type EventInput,
} from '../../../src/domain/calendar/events.js';
import {
  decideDeleteEventScoped,
  decideUpdateEvent,
} from '../../../src/domain/calendar/occurrences.js';
import { COLLECTIONS, ENTRIES, type Collection } from '../../../src/domain/collections/types.js';
import {
  decideCreateCollection,
  decideDeleteCollection,
} from '../../../src/domain/collections/collections.js';
import { decideDeletePerson } from '../../../src/domain/people/people.js';
import { Conflict, Invalid, NotFound } from '../../../src/domain/shared/errors.js';
import { decideCreatePlan, decideLinkEvent } from '../../../src/domain/plans/plans.js';
import { getPlan } from '../../../src/domain/plans/views.js';
import type { EventRecord } from '../../../src/domain/calendar/types.js';
import { calendarFixture, thrown } from './fixture.js';

type F = ReturnType<typeof calendarFixture>;

function create(f: F, input: Partial<EventInput> = {}): EventRecord {
  return f.run((s, c) => decideCreateEvent(s, { title: 'Event', date: '2026-12-01', ...input }, c))
    .result;
}

/** A plan the event is linked to: the plans area's reaction to removed events shows on it. */
function linkedPlan(f: F, eventId: string): string {
  const plan = f.run((s, c) => decideCreatePlan(s, { title: 'Plan' }, c)).result;
  f.run((s, c) => decideLinkEvent(s, plan.id, { eventId }, c));
  return plan.id;
}

describe('calendar events (domain)', () => {
  describe('decideCreateEvent', () => {
    it('stores an entry of the default calendar with defaults filled and logs calendar.event.created', () => {
      const f = calendarFixture();
      const d = f.run((s, c) =>
        decideCreateEvent(
          s,
          {
            title: '  Swim ',
            date: '2026-12-01',
            time: '16:30',
            reminders: [{ offsetMinutes: 30 }],
            travelPlan: { origin: 'Home', baseTravelMinutes: 20 },
            data: { colour: 'blue' },
          },
          c,
        ),
      );
      const ev = d.result;
      expect(ev.collectionKey).to.equal('calendar');
      expect(ev.title).to.equal('Swim');
      expect(ev.data).to.deep.equal({
        date: '2026-12-01',
        time: '16:30',
        colour: 'blue',
        reminders: [
          {
            offsetMinutes: 30,
            audience: 'household',
            channels: ['in_app'],
            mode: 'plain',
            recipientPersonIds: [],
          },
        ],
        travelPlan: { origin: 'Home', baseTravelMinutes: 20, arriveEarlyMinutes: 0 },
      });
      expect(f.state.get(ENTRIES, ev.id)).to.equal(ev);
      expect(d.events.map((e) => e.type)).to.deep.equal(['calendar.event.created']);
      expect(getEvent(f.state, ev.id)).to.equal(ev);
    });

    it('derives leaveAt in the family zone, across midnight and DST', () => {
      const f = calendarFixture({ timezone: 'Europe/Berlin' });
      const early = create(f, {
        date: '2026-03-29',
        time: '03:30',
        travelPlan: { origin: 'Home', baseTravelMinutes: 45, arriveEarlyMinutes: 15 },
      });
      // 03:30 CEST is 01:30 UTC; one hour earlier is 00:30 UTC = 01:30 CET (the clock jumped 02:00 → 03:00).
      expect((eventView(f.state, early).data.travelPlan as any).leaveAt).to.equal(
        '2026-03-29T01:30',
      );
      const midnight = create(f, {
        date: '2026-12-01',
        time: '00:15',
        travelPlan: { origin: 'Home', baseTravelMinutes: 30 },
      });
      expect((eventView(f.state, midnight).data.travelPlan as any).leaveAt).to.equal(
        '2026-11-30T23:45',
      );
      const allDay = create(f, { travelPlan: { origin: 'Home', baseTravelMinutes: 30 } });
      expect(eventView(f.state, allDay).data.travelPlan).to.deep.equal({
        origin: 'Home',
        baseTravelMinutes: 30,
        arriveEarlyMinutes: 0,
      });
    });

    it('shows the timing keys always and other fields only when set', () => {
      const f = calendarFixture();
      const v = eventView(f.state, create(f));
      expect(v.data).to.deep.equal({
        date: '2026-12-01',
        time: null,
        endDate: null,
        endTime: null,
        allDay: true,
      });
      expect(v).to.include({ calendarKey: 'calendar', status: 'active', title: 'Event' });
      expect(
        eventTiming(create(f, { date: '2026-12-01', endDate: '2026-12-03' }), 'UTC'),
      ).to.deep.equal({
        date: '2026-12-01',
        endDate: '2026-12-03',
        time: null,
        endTime: null,
        allDay: true,
      });
    });

    it('applies the consistency checks of event data', () => {
      const f = calendarFixture();
      const cases: [Partial<EventInput>, (string | number)[]][] = [
        [{ endDate: '2026-11-30' }, ['endDate']],
        [{ time: '10:00', endTime: '10:00' }, ['endTime']],
        [{ time: '10:00', endTime: '09:00' }, ['endTime']],
        [{ endTime: '09:00' }, ['endTime']],
        [{ durationMinutes: 30 }, ['durationMinutes']],
        [{ allDay: true, time: '10:00' }, ['time']],
        [{ repeatInterval: 2 }, ['repeatInterval']],
        [{ repeatFrequency: 'none', repeatDays: [1] }, ['repeatDays']],
        [{ repeatUntil: '2027-01-01' }, ['repeatUntil']],
        [{ repeatFrequency: 'daily', repeatDays: [1] }, ['repeatDays']],
        [{ repeatFrequency: 'custom' }, ['repeatDays']],
        [{ repeatFrequency: 'daily', repeatUntil: '2026-11-01' }, ['repeatUntil']],
        [{ ownerPersonId: 'person_nobody' }, ['ownerPersonId']],
        [{ attendance: { person_nobody: 'going' } }, ['attendance', 'person_nobody']],
        [
          { reminders: [{ offsetMinutes: 5, audience: 'people' }] },
          ['reminders', 0, 'recipientPersonIds'],
        ],
        [{ data: { date: 'x' } }, ['data', 'date']],
        [{ title: '   ' }, ['title']],
      ];
      for (const [input, path] of cases) {
        const err = thrown(() =>
          decideCreateEvent(f.state, { title: 'E', date: '2026-12-01', ...input }, f.ctx()),
        );
        expect(err, JSON.stringify(input)).to.be.instanceOf(Invalid);
        expect(
          err.issues!.map((i) => i.path),
          JSON.stringify(input),
        ).to.deep.include(path);
      }
      // Multi-day with an earlier end time is fine; so is an end time on the same day after the start.
      create(f, { time: '22:00', endDate: '2026-12-02', endTime: '02:00' });
      create(f, { time: '09:00', endTime: '09:15' });
    });

    it('refuses an unknown calendar (400) and a feed calendar (409)', () => {
      const f = calendarFixture();
      expect(
        thrown(() =>
          decideCreateEvent(
            f.state,
            { title: 'E', date: '2026-12-01', calendarKey: 'meals' },
            f.ctx(),
          ),
        ),
      ).to.be.instanceOf(Invalid);
      expect(
        thrown(() =>
          decideCreateEvent(
            f.state,
            { title: 'E', date: '2026-12-01', calendarKey: 'nope' },
            f.ctx(),
          ),
        ),
      ).to.be.instanceOf(Invalid);
      const feed: Collection = {
        key: 'school',
        name: 'School',
        description: null,
        fields: [],
        color: 'blue',
        category: 'calendar',
        builtin: false,
        sourceId: 'src_1',
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
      };
      f.state.apply([{ table: COLLECTIONS, id: 'school', value: feed }]);
      expect(
        thrown(() =>
          decideCreateEvent(
            f.state,
            { title: 'E', date: '2026-12-01', calendarKey: 'school' },
            f.ctx(),
          ),
        ),
      ).to.be.instanceOf(Conflict);
    });
  });

  describe('decideUpdateEvent (series)', () => {
    it('merges attendance per person, clears it first with clearAttendance, and unsets with null', () => {
      const f = calendarFixture();
      const a = f.person('Ann');
      const b = f.person('Ben');
      const ev = create(f, {
        time: '10:00',
        attendance: { [a]: 'going' },
        where: 'Pool',
        travelPlan: { origin: 'Home', baseTravelMinutes: 5 },
      });
      let d = f.run((s, c) => decideUpdateEvent(s, ev.id, { attendance: { [b]: 'maybe' } }, c));
      expect(d.result.event.data.attendance).to.deep.equal({ [a]: 'going', [b]: 'maybe' });
      d = f.run((s, c) =>
        decideUpdateEvent(
          s,
          ev.id,
          { clearAttendance: true, attendance: { [b]: 'out' }, where: null, clearTravelPlan: true },
          c,
        ),
      );
      expect(d.result.event.data.attendance).to.deep.equal({ [b]: 'out' });
      expect(d.result.event.data).to.not.have.any.keys('where', 'travelPlan');
      expect(d.events[0].type).to.equal('calendar.event.updated');
      expect((d.events[0].previous as any).data.where).to.equal('Pool');
    });

    it('keeps a reference to a person deleted since, but refuses new ones to them', () => {
      const f = calendarFixture();
      const a = f.person('Ann');
      const ev = create(f, { ownerPersonId: a });
      f.run((s, c) => decideDeletePerson(s, a, c));
      f.run((s, c) => decideUpdateEvent(s, ev.id, { title: 'Renamed' }, c));
      const other = create(f);
      expect(
        thrown(() => decideUpdateEvent(f.state, other.id, { ownerPersonId: a }, f.ctx())).issues![0]
          .path,
      ).to.deep.equal(['ownerPersonId']);
    });

    it('switches between all-day and timed', () => {
      const f = calendarFixture();
      const ev = create(f, { time: '10:00', durationMinutes: 30 });
      let d = f.run((s, c) => decideUpdateEvent(s, ev.id, { allDay: true }, c));
      expect(d.result.event.data).to.deep.equal({ date: '2026-12-01', allDay: true });
      d = f.run((s, c) => decideUpdateEvent(s, ev.id, { time: '11:00' }, c));
      expect(d.result.event.data).to.deep.equal({ date: '2026-12-01', time: '11:00' });
      expect(
        thrown(() => decideUpdateEvent(f.state, ev.id, { allDay: true, time: '12:00' }, f.ctx())),
      ).to.be.instanceOf(Invalid);
    });

    it('writes nothing when nothing changes', () => {
      const f = calendarFixture();
      const ev = create(f, { where: 'Pool' });
      const d = f.run((s, c) => decideUpdateEvent(s, ev.id, { where: 'Pool' }, c));
      expect(d.changes).to.have.length(0);
      expect(d.events).to.have.length(0);
    });

    it('answers 404 for an unknown event or an entry of another collection', () => {
      const f = calendarFixture();
      expect(
        thrown(() => decideUpdateEvent(f.state, 'ent_nope', { title: 'x' }, f.ctx())),
      ).to.be.instanceOf(NotFound);
    });
  });

  describe('occurrences', () => {
    function weekly(f: F): EventRecord {
      return create(f, {
        title: 'Swim',
        date: '2026-12-01',
        time: '16:00',
        durationMinutes: 45,
        repeatFrequency: 'weekly',
        where: 'Pool',
      });
    }

    it('stores only what differs from the series, and later series edits flow through the rest', () => {
      const f = calendarFixture();
      const ev = weekly(f);
      const d = f.run((s, c) =>
        decideUpdateEvent(
          s,
          ev.id,
          {
            editScope: 'occurrence',
            occurrenceDate: '2026-12-08',
            time: '17:00',
            where: 'Pool',
            status: 'done',
          },
          c,
        ),
      );
      expect(d.result.occurrenceDate).to.equal('2026-12-08');
      const stored = getEvent(f.state, ev.id)!;
      expect(stored.exceptions!['2026-12-08']).to.deep.include({
        status: 'done',
        data: { time: '17:00' },
      });
      expect(d.events[0]).to.deep.include({ type: 'calendar.event.updated' });
      expect((d.events[0].object as any).occurrenceDate).to.equal('2026-12-08');

      f.run((s, c) => decideUpdateEvent(s, ev.id, { where: 'Lake', time: '15:00' }, c));
      const occ = occurrenceView(f.state, getEvent(f.state, ev.id)!, '2026-12-08');
      expect(occ.data).to.include({ date: '2026-12-08', time: '17:00', where: 'Lake' });
      expect(occ.status).to.equal('done');
      expect(occurrenceView(f.state, getEvent(f.state, ev.id)!, '2026-12-15').data).to.include({
        time: '15:00',
        where: 'Lake',
      });
    });

    it('answers 404 for a date that is not an occurrence and 400 without occurrenceDate', () => {
      const f = calendarFixture();
      const ev = weekly(f);
      expect(
        thrown(() =>
          decideUpdateEvent(
            f.state,
            ev.id,
            { editScope: 'occurrence', occurrenceDate: '2026-12-09', title: 'x' },
            f.ctx(),
          ),
        ),
      ).to.be.instanceOf(NotFound);
      expect(
        thrown(() =>
          decideUpdateEvent(
            f.state,
            ev.id,
            { editScope: 'occurrence', occurrenceDate: '2026-11-24', title: 'x' },
            f.ctx(),
          ),
        ),
      ).to.be.instanceOf(NotFound);
      expect(
        thrown(() =>
          decideUpdateEvent(f.state, ev.id, { editScope: 'occurrence', title: 'x' }, f.ctx()),
        ).issues![0].path,
      ).to.deep.equal(['occurrenceDate']);
      expect(
        thrown(() =>
          decideUpdateEvent(f.state, ev.id, { occurrenceDate: '2026-12-08', title: 'x' }, f.ctx()),
        ),
      ).to.be.instanceOf(Invalid);
      expect(
        thrown(() =>
          decideUpdateEvent(
            f.state,
            ev.id,
            { editScope: 'occurrence', occurrenceDate: '2026-12-08', repeatInterval: 2 },
            f.ctx(),
          ),
        ),
      ).to.be.instanceOf(Invalid);
      expect(
        thrown(() => decideDeleteEventScoped(f.state, ev.id, { editScope: 'occurrence' }, f.ctx()))
          .issues![0].path,
      ).to.deep.equal(['query', 'occurrenceDate']);
    });

    it('removes one date, which then is no occurrence any more; the series stays', () => {
      const f = calendarFixture();
      const ev = weekly(f);
      const d = f.run((s, c) =>
        decideDeleteEventScoped(
          s,
          ev.id,
          { editScope: 'occurrence', occurrenceDate: '2026-12-15' },
          c,
        ),
      );
      expect(d.events.map((e) => e.type)).to.deep.equal(['calendar.event.updated']);
      expect(getEvent(f.state, ev.id)!.exceptions).to.have.key('2026-12-15');
      expect(
        thrown(() =>
          decideDeleteEventScoped(
            f.state,
            ev.id,
            { editScope: 'occurrence', occurrenceDate: '2026-12-15' },
            f.ctx(),
          ),
        ),
      ).to.be.instanceOf(NotFound);
      expect(
        thrown(() =>
          decideUpdateEvent(
            f.state,
            ev.id,
            { editScope: 'occurrence', occurrenceDate: '2026-12-15', title: 'x' },
            f.ctx(),
          ),
        ),
      ).to.be.instanceOf(NotFound);
    });

    it('keeps exceptions across series edits that keep their dates, drops those that no longer occur', () => {
      const f = calendarFixture();
      const ev = create(f, { date: '2026-12-01', time: '16:00', repeatFrequency: 'daily' });
      f.run((s, c) =>
        decideUpdateEvent(
          s,
          ev.id,
          { editScope: 'occurrence', occurrenceDate: '2026-12-03', title: 'Odd' },
          c,
        ),
      );
      f.run((s, c) =>
        decideDeleteEventScoped(
          s,
          ev.id,
          { editScope: 'occurrence', occurrenceDate: '2026-12-04' },
          c,
        ),
      );
      f.run((s, c) => decideUpdateEvent(s, ev.id, { time: '18:00', note: 'bring towels' }, c));
      expect(Object.keys(getEvent(f.state, ev.id)!.exceptions!)).to.deep.equal([
        '2026-12-03',
        '2026-12-04',
      ]);
      // Every other day from Dec 1: Dec 3 still occurs, Dec 4 does not.
      f.run((s, c) => decideUpdateEvent(s, ev.id, { repeatInterval: 2 }, c));
      expect(Object.keys(getEvent(f.state, ev.id)!.exceptions!)).to.deep.equal(['2026-12-03']);
      f.run((s, c) => decideUpdateEvent(s, ev.id, { repeatFrequency: 'none' }, c));
      const after = getEvent(f.state, ev.id)!;
      expect(after.exceptions).to.equal(undefined);
      expect(after.data).to.not.have.any.keys('repeatFrequency', 'repeatInterval');
    });

    it('treats the date of a one-off event as its only occurrence', () => {
      const f = calendarFixture();
      const ev = create(f);
      const d = f.run((s, c) =>
        decideUpdateEvent(
          s,
          ev.id,
          { editScope: 'occurrence', occurrenceDate: '2026-12-01', title: 'Moved on' },
          c,
        ),
      );
      expect(d.result.event.title).to.equal('Moved on');
      expect(
        thrown(() =>
          decideUpdateEvent(
            f.state,
            ev.id,
            { editScope: 'occurrence', occurrenceDate: '2026-12-02', title: 'x' },
            f.ctx(),
          ),
        ),
      ).to.be.instanceOf(NotFound);
      f.run((s, c) =>
        decideDeleteEventScoped(
          s,
          ev.id,
          { editScope: 'occurrence', occurrenceDate: '2026-12-01' },
          c,
        ),
      );
      expect(getEvent(f.state, ev.id)).to.equal(undefined);
    });
  });

  describe('decideDeleteEvent', () => {
    it('deletes the series, logs calendar.event.deleted and lets other areas react in the same decision', () => {
      const f = calendarFixture();
      const ev = create(f, { repeatFrequency: 'daily' });
      const plan = linkedPlan(f, ev.id);
      const d = f.run((s, c) => decideDeleteEvent(s, ev.id, c));
      expect(d.events.map((e) => e.type)).to.deep.equal([
        'calendar.event.deleted',
        'plan.event.unlinked',
      ]);
      expect(getPlan(f.state, plan)!.events).to.deep.equal([]);
      expect(f.state.get(ENTRIES, ev.id)).to.equal(undefined);
      expect(thrown(() => decideDeleteEvent(f.state, ev.id, f.ctx()))).to.be.instanceOf(NotFound);
    });

    it('lets other areas react when a custom calendar goes with its events', () => {
      const f = calendarFixture();
      f.run((s, c) => decideCreateCollection(s, { name: 'Sports', category: 'calendar' }, c));
      const a = create(f, { calendarKey: 'sports' });
      const b = create(f);
      const planA = linkedPlan(f, a.id);
      const planB = linkedPlan(f, b.id);
      const d = f.run((s, c) => decideDeleteCollection(s, 'sports', c));
      expect(d.events.map((e) => e.type)).to.deep.equal([
        'collection.deleted',
        'plan.event.unlinked',
      ]);
      expect(getPlan(f.state, planA)!.events).to.deep.equal([]);
      expect(getPlan(f.state, planB)!.events.map((e) => e.eventId)).to.deep.equal([b.id]);
    });
  });

  describe('events of an external feed', () => {
    function feedEvent(f: F): EventRecord {
      const ev = create(f, { title: 'School trip', time: '08:00', repeatFrequency: 'weekly' });
      const owned: EventRecord = { ...ev, sourceId: 'src_1' };
      f.state.apply([{ table: ENTRIES, id: ev.id, value: owned }]);
      return owned;
    }

    it('refuses changes to feed-owned fields and deletes (409) but takes overlays', () => {
      const f = calendarFixture();
      const ev = feedEvent(f);
      const a = f.person('Ann');
      for (const patch of [
        { title: 'x' },
        { time: '09:00' },
        { where: 'x' },
        { repeatFrequency: 'daily' as const },
        { data: { x: 1 } },
      ]) {
        expect(
          thrown(() => decideUpdateEvent(f.state, ev.id, patch, f.ctx())),
          JSON.stringify(patch),
        ).to.be.instanceOf(Conflict);
      }
      expect(thrown(() => decideDeleteEvent(f.state, ev.id, f.ctx()))).to.be.instanceOf(Conflict);
      expect(
        thrown(() =>
          decideDeleteEventScoped(
            f.state,
            ev.id,
            { editScope: 'occurrence', occurrenceDate: '2026-12-08' },
            f.ctx(),
          ),
        ),
      ).to.be.instanceOf(Conflict);
      const d = f.run((s, c) =>
        decideUpdateEvent(
          s,
          ev.id,
          { note: 'pack lunch', responsiblePersonIds: [a], status: 'done' },
          c,
        ),
      );
      expect(d.result.event.data).to.include({ note: 'pack lunch' });
      expect(d.result.event.sourceId).to.equal('src_1');
      expect(eventView(f.state, d.result.event).sourceId).to.equal('src_1');
    });
  });
});
