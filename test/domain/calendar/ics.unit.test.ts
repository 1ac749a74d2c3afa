import { expect } from 'chai';
import IcalExpander from 'ical-expander';
import { createRequire } from 'node:module';
import { escapeText, foldLine, renderCalendar } from '../../../src/domain/calendar/ics.js';
import type { IcsCalendar, IcsEvent } from '../../../src/domain/calendar/icsTypes.js';
import {
  occurrenceStarts,
  rruleFor,
  type SeriesTiming,
} from '../../../src/domain/calendar/recurrence.js';
import { addDays, localToInstant, offsetSecondsAt } from '../../../src/domain/shared/time.js';

// ical.js ships no types; it is the reference reader here, used untyped. ical-expander requires
// the same module, so zones registered on one are seen by the other.
const ICAL = createRequire(import.meta.url)('ical.js');

const updatedAt = new Date('2026-03-01T10:00:00Z');
const now = new Date('2026-11-22T08:00:00Z');

function calendar(events: IcsEvent[], timezone = 'Europe/Berlin', name = 'Family'): string {
  const cal: IcsCalendar = { name, timezone, now, events };
  return renderCalendar(cal);
}

function vevents(ics: string): any[] {
  return new ICAL.Component(ICAL.parse(ics)).getAllSubcomponents('vevent');
}

function expand(ics: string, from: string, to: string) {
  return new IcalExpander({ ics, maxIterations: 1000 }).between(new Date(from), new Date(to));
}

/**
 * Every instance ical-expander finds, as [start, end, summary]. It lists an override under
 * `events` when it keeps its start and under `occurrences` when it moves (ical.js relates the
 * exception to the series), so both lists are read.
 */
function instances(ics: string, from: string, to: string): string[][] {
  const found = expand(ics, from, to);
  const show = (t: any) => (t.isDate ? t.toString() : t.toJSDate().toISOString());
  return [
    ...found.occurrences.map((o: any) => [show(o.startDate), show(o.endDate), o.item.summary]),
    ...found.events.map((e: any) => [show(e.startDate), show(e.endDate), e.summary]),
  ].sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
}

/** Runs `fn` with ical.js reading `tz` from our own VTIMEZONE instead of ical-expander's copy. */
function withOurZone<T>(ics: string, tz: string, fn: () => T): T {
  const vtz = new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent('vtimezone');
  const theirs = ICAL.TimezoneService.get(tz);
  ICAL.TimezoneService.register(tz, new ICAL.Timezone(vtz));
  try {
    return fn();
  } finally {
    ICAL.TimezoneService.register(tz, theirs);
  }
}

function event(fields: Partial<IcsEvent> & Pick<IcsEvent, 'date'>): IcsEvent {
  return { uid: 'ent_1', summary: 'Event', updatedAt, ...fields };
}

/** The series as the share feed hands it to renderCalendar. */
function series(t: SeriesTiming, extra: Partial<IcsEvent> = {}): IcsEvent {
  const { repeatFrequency: _f, repeatInterval: _i, repeatDays: _d, repeatUntil: _u, ...timing } = t;
  return event({ ...timing, rrule: rruleFor(t) ?? undefined, ...extra });
}

describe('renderCalendar: format', () => {
  it('ends every line with CRLF and nothing else', () => {
    const ics = calendar([
      event({ date: '2026-03-02', time: '09:00', description: 'one\ntwo\r\nthree' }),
    ]);
    expect(ics.endsWith('\r\n')).to.equal(true);
    expect(ics.replace(/\r\n/g, '')).to.not.match(/[\r\n]/);
  });
  it('names the calendar with X-WR-CALNAME and NAME, escaped', () => {
    const ics = calendar([], 'UTC', 'Smith, family; home');
    expect(ics).to.contain('X-WR-CALNAME:Smith\\, family\\; home\r\n');
    expect(ics).to.contain('NAME:Smith\\, family\\; home\r\n');
    const vcal = new ICAL.Component(ICAL.parse(ics));
    expect(vcal.getFirstPropertyValue('version')).to.equal('2.0');
    expect(vcal.getFirstPropertyValue('prodid')).to.be.a('string');
  });
  it('round-trips escaped text through ical.js', () => {
    const text = 'a,b;c\\d\nsecond line 😀 — fin';
    const ics = calendar([
      event({ date: '2026-03-02', summary: text, description: text, location: 'Café; Ort, 2' }),
    ]);
    expect(ics).to.contain('SUMMARY:a\\,b\\;c\\\\d\\nsecond line 😀 — fin\r\n');
    const ev = new ICAL.Event(vevents(ics)[0]);
    expect(ev.summary).to.equal(text);
    expect(ev.description).to.equal(text);
    expect(ev.location).to.equal('Café; Ort, 2');
  });
  it('folds lines at 75 octets without splitting a character, and ical.js unfolds them', () => {
    const long = 'Über 🎉 alles, '.repeat(40) + 'ß'.repeat(80);
    const ics = calendar([
      event({ date: '2026-03-02', summary: long, description: 'x'.repeat(500) }),
    ]);
    const lines = ics.split('\r\n').slice(0, -1);
    for (const line of lines) {
      expect(Buffer.byteLength(line, 'utf8'), line).to.be.at.most(75);
      expect(line).to.not.contain('\uFFFD');
      expect(
        Buffer.from(Buffer.from(line, 'utf8').toString('utf8')).equals(Buffer.from(line, 'utf8')),
      ).to.equal(true);
    }
    expect(lines.filter((l) => l.startsWith(' ')).length).to.be.greaterThan(10);
    expect(new ICAL.Event(vevents(ics)[0]).summary).to.equal(long);
  });
  it('stamps events with their last change, so unchanged data renders the same bytes', () => {
    const evs = [
      event({ date: '2026-03-02', time: '09:00', createdAt: new Date('2026-02-01T00:00:00Z') }),
    ];
    const ics = calendar(evs);
    expect(ics).to.contain('DTSTAMP:20260301T100000Z\r\n');
    expect(ics).to.contain('LAST-MODIFIED:20260301T100000Z\r\n');
    expect(ics).to.contain('CREATED:20260201T000000Z\r\n');
    expect(calendar(evs)).to.equal(ics);
  });
  it('maps statuses: active and done confirmed, archived cancelled', () => {
    const ics = calendar([
      event({ uid: 'a', date: '2026-03-02', status: 'active' }),
      event({ uid: 'd', date: '2026-03-02', status: 'done' }),
      event({ uid: 'x', date: '2026-03-02', status: 'archived' }),
    ]);
    expect(vevents(ics).map((v) => v.getFirstPropertyValue('status'))).to.deep.equal([
      'CONFIRMED',
      'CONFIRMED',
      'CANCELLED',
    ]);
  });
});

describe('escapeText and foldLine', () => {
  it('escapes backslash, comma, semicolon and newlines and drops other control characters', () => {
    expect(escapeText('a\\b,c;d\ne\r\nf\rg\u0007h\ti')).to.equal(
      'a\\\\b\\,c\\;d\\ne\\nf\\ng' + 'h\ti',
    );
  });
  it('leaves short lines alone and starts continuations with one space', () => {
    expect(foldLine('SUMMARY:short')).to.equal('SUMMARY:short');
    const folded = foldLine('X:' + 'a'.repeat(200));
    expect(folded.split('\r\n').map((l) => l.length)).to.deep.equal([75, 75, 54]); // 202 = 75 + 74 + 53 characters
    expect(
      folded
        .split('\r\n')
        .slice(1)
        .every((l) => l.startsWith(' ') && !l.startsWith('  ')),
    ).to.equal(true);
  });
  it('moves a 4-byte character whole to the next line', () => {
    const folded = foldLine('X:' + 'a'.repeat(71) + '😀');
    expect(folded).to.equal('X:' + 'a'.repeat(71) + '\r\n 😀');
  });
});

describe('renderCalendar: dates and times', () => {
  it('writes a multi-day all-day event with an exclusive DTEND date', () => {
    const ics = calendar([
      event({ date: '2026-07-10', endDate: '2026-07-12', allDay: true, summary: 'Trip' }),
    ]);
    expect(ics).to.contain('DTSTART;VALUE=DATE:20260710\r\nDTEND;VALUE=DATE:20260713\r\n');
    expect(ics).to.not.contain('VTIMEZONE');
    const ev = new ICAL.Event(vevents(ics)[0]);
    expect(ev.startDate.isDate).to.equal(true);
    expect(ev.startDate.toString()).to.equal('2026-07-10');
    expect(ev.endDate.toString()).to.equal('2026-07-13');
    const found = expand(ics, '2026-07-12T12:00:00Z', '2026-07-12T13:00:00Z');
    expect(found.events.map((e: any) => e.summary)).to.deep.equal(['Trip']);
  });
  it('treats an event without a time as all-day', () => {
    expect(calendar([event({ date: '2026-07-10' })])).to.contain(
      'DTSTART;VALUE=DATE:20260710\r\nDTEND;VALUE=DATE:20260711\r\n',
    );
  });
  it('writes timed events in the family zone with a VTIMEZONE', () => {
    const ics = calendar([event({ date: '2026-07-10', time: '09:30', endTime: '11:00' })]);
    expect(ics).to.contain(
      'DTSTART;TZID=Europe/Berlin:20260710T093000\r\nDTEND;TZID=Europe/Berlin:20260710T110000\r\n',
    );
    expect(ics).to.contain('BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\n');
    const ev = new ICAL.Event(vevents(ics)[0]);
    expect(ev.startDate.toJSDate().toISOString()).to.equal('2026-07-10T07:30:00.000Z');
    expect(ev.endDate.toJSDate().toISOString()).to.equal('2026-07-10T09:00:00.000Z');
  });
  it('ends a timed event after durationMinutes, else after an hour, else at the end of its endDate', () => {
    const ics = calendar([
      event({ uid: 'a', date: '2026-07-10', time: '23:30', durationMinutes: 90 }),
      event({ uid: 'b', date: '2026-07-10', time: '09:00' }),
      event({ uid: 'c', date: '2026-07-10', time: '09:00', endDate: '2026-07-12' }),
      event({
        uid: 'd',
        date: '2026-07-10',
        time: '22:00',
        endDate: '2026-07-11',
        endTime: '02:00',
      }),
    ]);
    const ends = vevents(ics).map((v) => v.getFirstProperty('dtend').toICALString());
    expect(ends).to.deep.equal([
      'DTEND;TZID=Europe/Berlin:20260711T010000',
      'DTEND;TZID=Europe/Berlin:20260710T100000',
      'DTEND;TZID=Europe/Berlin:20260713T000000',
      'DTEND;TZID=Europe/Berlin:20260711T020000',
    ]);
  });
  it('writes UTC times with Z and no VTIMEZONE for a UTC family', () => {
    const ics = calendar(
      [
        series(
          {
            date: '2026-03-02',
            time: '09:00',
            repeatFrequency: 'daily',
            repeatUntil: '2026-03-05',
          },
          { exdates: ['2026-03-03'] },
        ),
      ],
      'UTC',
    );
    expect(ics).to.not.contain('VTIMEZONE');
    expect(ics).to.contain('DTSTART:20260302T090000Z\r\n');
    expect(ics).to.contain('RRULE:FREQ=DAILY;UNTIL=20260305T235959Z\r\n');
    expect(ics).to.contain('EXDATE:20260303T090000Z\r\n');
    const found = expand(ics, '2026-03-01T00:00:00Z', '2026-03-31T00:00:00Z');
    expect(found.occurrences.map((o: any) => o.startDate.toJSDate().toISOString())).to.deep.equal([
      '2026-03-02T09:00:00.000Z',
      '2026-03-04T09:00:00.000Z',
      '2026-03-05T09:00:00.000Z',
    ]);
  });
});

describe('renderCalendar: DST weeks', () => {
  const cases = [
    {
      tz: 'Europe/Berlin',
      from: '2026-03-26',
      before: '08:30',
      after: '07:30',
      change: '2026-03-29',
    },
    {
      tz: 'America/New_York',
      from: '2026-03-05',
      before: '14:30',
      after: '13:30',
      change: '2026-03-08',
    },
    {
      tz: 'Europe/Berlin',
      from: '2026-10-22',
      before: '07:30',
      after: '08:30',
      change: '2026-10-25',
    },
    {
      tz: 'America/New_York',
      from: '2026-10-29',
      before: '13:30',
      after: '14:30',
      change: '2026-11-01',
    },
  ];
  for (const c of cases) {
    it(`keeps a daily 09:30 at 09:30 local across ${c.change} in ${c.tz}`, () => {
      const t: SeriesTiming = { date: c.from, time: '09:30', repeatFrequency: 'daily' };
      const ics = calendar([series(t)], c.tz);
      const expected = [...occurrenceStarts(t, { to: addDays(c.from, 6) })].map(
        (d) => `${d}T${d < c.change ? c.before : c.after}:00.000Z`,
      );
      const instants = (found: { occurrences: any[] }) =>
        found.occurrences.map((o) => o.startDate.toJSDate().toISOString());
      const window = [`${c.from}T00:00:00Z`, `${addDays(c.from, 6)}T23:00:00Z`] as const;
      // Through ical-expander's own copy of the zone, and through the VTIMEZONE we wrote.
      expect(instants(expand(ics, ...window))).to.deep.equal(expected);
      expect(withOurZone(ics, c.tz, () => instants(expand(ics, ...window)))).to.deep.equal(
        expected,
      );
      expect(expected[0]).to.equal(localToInstant(c.from, '09:30', c.tz).toISOString());
    });
  }

  it('writes VTIMEZONEs whose offsets match the tz database at thousands of instants over decades', () => {
    // ical.js stops expanding zone rules after 2035 unless told otherwise.
    const maxYear = ICAL.Timezone.MAX_YEAR;
    ICAL.Timezone.MAX_YEAR = 2100;
    try {
      for (const tz of [
        'Europe/Berlin',
        'America/New_York',
        'Australia/Sydney',
        'Asia/Tokyo',
        'America/Sao_Paulo',
      ]) {
        const ics = calendar([event({ date: '2024-06-01', time: '10:00' })], tz);
        const zone = new ICAL.Timezone(
          new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent('vtimezone'),
        );
        for (
          let ms = Date.UTC(2024, 0, 1);
          ms < Date.UTC(2060, 0, 1);
          ms += 97 * 3_600_000 + 60_000 * 17
        ) {
          // ical.js reads the offset from the wall time, which is ambiguous in a repeated hour.
          if (
            offsetSecondsAt(new Date(ms - 3 * 3_600_000), tz) !==
            offsetSecondsAt(new Date(ms + 3 * 3_600_000), tz)
          )
            continue;
          const local = ICAL.Time.fromJSDate(new Date(ms), true).convertToZone(zone);
          expect(local.utcOffset(), `${tz} ${new Date(ms).toISOString()}`).to.equal(
            offsetSecondsAt(new Date(ms), tz),
          );
        }
      }
    } finally {
      ICAL.Timezone.MAX_YEAR = maxYear;
    }
  });
  it('states the yearly rule once the zone follows one', () => {
    const ics = calendar([event({ date: '2026-07-10', time: '09:30' })], 'Europe/Berlin');
    expect(ics).to.contain(
      'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\n',
    );
    expect(ics).to.contain(
      'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\n',
    );
    const ny = calendar([event({ date: '2026-07-10', time: '09:30' })], 'America/New_York');
    expect(ny).to.contain('RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU\r\n');
    expect(ny).to.contain('RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU\r\n');
  });
});

describe('renderCalendar: repeats, exdates and overrides', () => {
  const t: SeriesTiming = {
    date: '2026-03-02',
    time: '18:00',
    endTime: '19:30',
    repeatFrequency: 'custom',
    repeatInterval: 2,
    repeatDays: [1, 4],
  };
  const ev = series(t, {
    summary: 'Swim',
    location: 'Pool',
    exdates: ['2026-03-05', '2026-03-30'],
    overrides: [
      { recurrenceDate: '2026-03-16', time: '17:00', endTime: '18:00', summary: 'Swim (early)' },
      { recurrenceDate: '2026-03-19', status: 'archived' },
      { recurrenceDate: '2026-03-30', summary: 'dropped: the date is excluded' },
    ],
  });

  it('writes RRULE, one EXDATE per removed date and a RECURRENCE-ID event per override', () => {
    const ics = calendar([ev]);
    expect(ics).to.contain('RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH;WKST=MO\r\n');
    expect(ics).to.contain(
      'EXDATE;TZID=Europe/Berlin:20260305T180000\r\nEXDATE;TZID=Europe/Berlin:20260330T180000\r\n',
    );
    const comps = vevents(ics);
    expect(comps.map((c) => c.getFirstPropertyValue('uid'))).to.deep.equal([
      'ent_1',
      'ent_1',
      'ent_1',
    ]);
    expect(
      comps.slice(1).map((c) => c.getFirstProperty('recurrence-id').toICALString()),
    ).to.deep.equal([
      'RECURRENCE-ID;TZID=Europe/Berlin:20260316T180000',
      'RECURRENCE-ID;TZID=Europe/Berlin:20260319T180000',
    ]);
    expect(comps[2].getFirstPropertyValue('status')).to.equal('CANCELLED');
    expect(comps[2].getFirstPropertyValue('summary')).to.equal('Swim');
  });
  it('expands in ical-expander to the listing occurrences, with exceptions in place', () => {
    const ics = calendar([ev]);
    const got = instances(ics, '2026-03-01T00:00:00Z', '2026-04-15T00:00:00Z');
    const plain = (d: string) => [
      localToInstant(d, '18:00', 'Europe/Berlin').toISOString(),
      localToInstant(d, '19:30', 'Europe/Berlin').toISOString(),
      'Swim',
    ];
    const listed = [...occurrenceStarts(t, { from: '2026-03-01', to: '2026-04-14' })];
    expect(listed).to.include.members(['2026-03-05', '2026-03-16', '2026-03-19', '2026-03-30']);
    const expected = listed
      .filter((d) => d !== '2026-03-05' && d !== '2026-03-30')
      .map((d) =>
        d === '2026-03-16'
          ? ['2026-03-16T16:00:00.000Z', '2026-03-16T17:00:00.000Z', 'Swim (early)']
          : plain(d),
      );
    expect(got).to.deep.equal(expected);
  });
  it('turns a date-only UNTIL into the UTC end of that local day for timed series', () => {
    const ics = calendar([series({ ...t, repeatUntil: '2026-03-19' })]);
    expect(ics).to.contain(
      'RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH;WKST=MO;UNTIL=20260319T225959Z\r\n',
    );
    const found = expand(ics, '2026-03-01T00:00:00Z', '2026-06-01T00:00:00Z');
    expect(found.occurrences.map((o: any) => o.startDate.toString().slice(0, 10))).to.deep.equal([
      '2026-03-02',
      '2026-03-05',
      '2026-03-16',
      '2026-03-19',
    ]);
  });
  it('adds an RDATE for a start off the weekly rule, so readers that drop it still show it', () => {
    const off: SeriesTiming = { date: '2026-03-04', repeatFrequency: 'custom', repeatDays: [1, 4] };
    const ics = calendar([series(off)]);
    expect(ics).to.contain('RDATE;VALUE=DATE:20260304\r\n');
    const found = expand(ics, '2026-03-01T00:00:00Z', '2026-03-13T00:00:00Z');
    const starts = found.occurrences.map((o: any) => o.startDate.toString()).sort();
    expect(starts).to.deep.equal([...occurrenceStarts(off, { to: '2026-03-12' })]);
    expect(calendar([series({ ...off, date: '2026-03-05' })])).to.not.contain('RDATE');
  });
  it('lets an override drop the series end time, falling back to an hour', () => {
    const ics = calendar(
      [
        event({
          date: '2026-03-02',
          time: '09:00',
          endTime: '11:00',
          rrule: 'FREQ=DAILY;COUNT=3',
          overrides: [{ recurrenceDate: '2026-03-03', endTime: undefined }],
        }),
      ],
      'UTC',
    );
    const found = instances(ics, '2026-03-01T00:00:00Z', '2026-03-06T00:00:00Z');
    expect(found.map((f) => [f[0], f[1]])).to.deep.equal([
      ['2026-03-02T09:00:00.000Z', '2026-03-02T11:00:00.000Z'],
      ['2026-03-03T09:00:00.000Z', '2026-03-03T10:00:00.000Z'],
      ['2026-03-04T09:00:00.000Z', '2026-03-04T11:00:00.000Z'],
    ]);
  });

  it('writes all-day series with DATE exdates and recurrence ids, moving multi-day overrides whole', () => {
    const weekend: SeriesTiming = {
      date: '2026-03-06',
      endDate: '2026-03-08',
      allDay: true,
      repeatFrequency: 'weekly',
    };
    const ics = calendar([
      series(weekend, {
        exdates: ['2026-03-13'],
        overrides: [{ recurrenceDate: '2026-03-20', date: '2026-03-21', summary: 'Later' }],
      }),
    ]);
    expect(ics).to.not.contain('VTIMEZONE');
    expect(ics).to.contain('EXDATE;VALUE=DATE:20260313\r\n');
    expect(ics).to.contain(
      'RECURRENCE-ID;VALUE=DATE:20260320\r\nDTSTART;VALUE=DATE:20260321\r\nDTEND;VALUE=DATE:20260324\r\n',
    );
    expect(instances(ics, '2026-03-01T00:00:00Z', '2026-04-01T00:00:00Z')).to.deep.equal([
      ['2026-03-06', '2026-03-09', 'Event'],
      ['2026-03-21', '2026-03-24', 'Later'],
      ['2026-03-27', '2026-03-30', 'Event'],
    ]);
  });
  it('writes a 29 February yearly series that ical-expander shows in leap years only', () => {
    const leap: SeriesTiming = { date: '2028-02-29', allDay: true, repeatFrequency: 'yearly' };
    const found = expand(calendar([series(leap)]), '2028-01-01T00:00:00Z', '2036-12-31T00:00:00Z');
    expect(found.occurrences.map((o: any) => o.startDate.toString())).to.deep.equal([
      '2028-02-29',
      '2032-02-29',
      '2036-02-29',
    ]);
  });
});
