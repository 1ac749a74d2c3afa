/**
 * A client's VTIMEZONE read on a budget (vtimezoneRules.ts) gives the offsets ical.js's full
 * expansion gives, for the shapes calendar programs write, and refuses what it does not read
 * (another frequency, too many observances or changes) quickly, naming the limit.
 */
import { expect } from 'chai';
import ICAL from 'ical.js';
import {
  VTIMEZONE_LIMITS,
  ZoneLimitError,
  vtimezoneOffsets,
} from '../../src/integrations/vtimezoneRules.js';
import { zoneResolver } from '../../src/integrations/icsZones.js';

const vtz = (lines: string[]): ICAL.JCalComponent =>
  (
    ICAL.parse(
      [
        'BEGIN:VCALENDAR',
        'BEGIN:VTIMEZONE',
        'TZID:Custom',
        ...lines,
        'END:VTIMEZONE',
        'END:VCALENDAR',
        '',
      ].join('\r\n'),
    ) as ICAL.JCalComponent
  )[2][0];

const obs = (kind: string, start: string, from: string, to: string, ...rest: string[]) => [
  `BEGIN:${kind}`,
  `DTSTART:${start}`,
  `TZOFFSETFROM:${from}`,
  `TZOFFSETTO:${to}`,
  ...rest,
  `END:${kind}`,
];

const zones: Record<string, string[]> = {
  'Berlin (Apple)': [
    ...obs(
      'DAYLIGHT',
      '19810329T020000',
      '+0100',
      '+0200',
      'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
    ),
    ...obs(
      'STANDARD',
      '19961027T030000',
      '+0200',
      '+0100',
      'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
    ),
  ],
  'New York (Outlook, from 1601)': [
    ...obs(
      'STANDARD',
      '16011104T020000',
      '-0400',
      '-0500',
      'RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=11',
    ),
    ...obs(
      'DAYLIGHT',
      '16010311T020000',
      '-0500',
      '-0400',
      'RRULE:FREQ=YEARLY;BYDAY=2SU;BYMONTH=3',
    ),
  ],
  'Sydney (southern summer)': [
    ...obs(
      'STANDARD',
      '20080406T030000',
      '+1100',
      '+1000',
      'RRULE:FREQ=YEARLY;BYMONTH=4;BYDAY=1SU',
    ),
    ...obs(
      'DAYLIGHT',
      '20081005T020000',
      '+1000',
      '+1100',
      'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=1SU',
    ),
  ],
  'Old style, by month day': [
    ...obs(
      'DAYLIGHT',
      '19870405T020000',
      '-0500',
      '-0400',
      'RRULE:FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=8,9,10,11,12,13,14;BYDAY=SU',
    ),
    ...obs(
      'STANDARD',
      '19871025T020000',
      '-0400',
      '-0500',
      'RRULE:FREQ=YEARLY;BYMONTH=11;BYMONTHDAY=1,2,3,4,5,6,7;BYDAY=SU',
    ),
  ],
  'Istanbul (DST ended by an UNTIL, then fixed)': [
    ...obs(
      'DAYLIGHT',
      '19960331T030000',
      '+0200',
      '+0300',
      'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU;UNTIL=20150329T010000Z',
    ),
    ...obs(
      'STANDARD',
      '19961027T040000',
      '+0300',
      '+0200',
      'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU;UNTIL=20151101T010000Z',
    ),
    ...obs('DAYLIGHT', '20160327T030000', '+0200', '+0300'),
    ...obs('STANDARD', '20160907T000000', '+0300', '+0300'),
  ],
  'RDATEs and a COUNT': [
    ...obs(
      'STANDARD',
      '20201025T030000',
      '+0200',
      '+0100',
      'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU;COUNT=7',
    ),
    ...obs(
      'DAYLIGHT',
      '20200329T020000',
      '+0100',
      '+0200',
      // One value a line: ical.js reads only the first of a list.
      'RDATE:20210328T020000',
      'RDATE:20220327T020000',
      'RDATE:20260329T020000',
    ),
  ],
  'India (one fixed observance)': obs('STANDARD', '19700101T000000', '+0530', '+0530'),
};

describe('VTIMEZONE rules read on a budget', () => {
  for (const [name, lines] of Object.entries(zones)) {
    it(`gives ical.js's offsets for ${name}, every 6 hours of 2026–2027`, () => {
      const c = vtz(lines);
      const zone = new ICAL.Timezone({ component: new ICAL.Component(c) });
      const instants: number[] = [];
      for (let t = Date.UTC(2026, 0, 1) / 1000; t < Date.UTC(2028, 0, 1) / 1000; t += 6 * 3600)
        instants.push(t);
      const ours = vtimezoneOffsets(c, [2026, 2027], instants);
      // ical.js reads a wall time: the instant's wall time at the offset read at its UTC one.
      const at = (sec: number) => {
        const d = new Date(sec * 1000);
        return zone.utcOffset(
          new ICAL.Time({
            year: d.getUTCFullYear(),
            month: d.getUTCMonth() + 1,
            day: d.getUTCDate(),
            hour: d.getUTCHours(),
            minute: d.getUTCMinutes(),
            second: 0,
          }),
        );
      };
      const theirs = instants.map((t) => at(t + at(t)));
      const differ = instants.filter((_, i) => ours[i] !== theirs[i]);
      // ical.js reads a wall time near a change with the new offset a few hours early at most.
      expect(
        differ.length,
        differ
          .slice(0, 3)
          .map((t) => new Date(t * 1000).toISOString())
          .join(' '),
      ).to.be.at.most(2);
    });
  }

  it('matches a custom zone to its IANA zone by offsets', () => {
    const r = zoneResolver(
      new Map([['Custom', vtz(zones['Berlin (Apple)'])]]),
      new Date('2026-06-01'),
    );
    const z = r('Custom');
    expect(z).to.be.a('string');
    expect(['Europe/Berlin', 'Africa/Ceuta', 'Europe/Amsterdam', 'Arctic/Longyearbyen']).to.include(
      z,
    );
  });

  const hostile = (n: number, freq: string) =>
    vtz(
      Array.from({ length: n }, () =>
        obs('STANDARD', '19000101T000000', '+0100', '+0100', `RRULE:FREQ=${freq};BYDAY=-1SU`),
      ).flat(),
    );
  const refusal = (c: ICAL.JCalComponent): { error: unknown; ms: number } => {
    const t = performance.now();
    try {
      zoneResolver(new Map([['Custom', c]]), new Date('2026-06-01'), true)('Custom');
      return { error: null, ms: performance.now() - t };
    } catch (error) {
      return { error, ms: performance.now() - t };
    }
  };

  for (const [n, freq] of [
    [60, 'MONTHLY'],
    [290, 'MONTHLY'],
    [60, 'DAILY'],
    [290, 'DAILY'],
  ] as const) {
    it(`refuses ${n} observances repeating ${freq} from 1900 in milliseconds, naming what it reads`, () => {
      const { error, ms } = refusal(hostile(n, freq));
      expect(error).to.be.instanceOf(ZoneLimitError);
      expect((error as Error).message).to.match(
        n > VTIMEZONE_LIMITS.observances ? /more than 200 STANDARD and DAYLIGHT/ : /FREQ=YEARLY/,
      );
      // Milliseconds on a quiet machine; the old expansion took seconds to minutes.
      expect(ms).to.be.below(500);
    });
  }

  it('refuses a yearly rule on every day of every month past the transitions limit', () => {
    const every = Array.from({ length: 28 }, (_, i) => i + 1).join(',');
    const { error, ms } = refusal(
      vtz(
        Array.from({ length: 150 }, () =>
          obs(
            'STANDARD',
            '19000101T000000',
            '+0100',
            '+0100',
            `RRULE:FREQ=YEARLY;BYMONTH=1,2,3,4,5,6,7,8,9,10,11,12;BYMONTHDAY=${every}`,
          ),
        ).flat(),
      ),
    );
    expect(error).to.be.instanceOf(ZoneLimitError);
    expect((error as Error).message).to.contain('more than 2000 times');
    // Milliseconds on a quiet machine; the old expansion took seconds to minutes.
    expect(ms).to.be.below(500);
  });

  it('reads a feed’s zone beyond the limits as no zone (its times floating), not an error', () => {
    const r = zoneResolver(new Map([['Custom', hostile(60, 'DAILY')]]), new Date('2026-06-01'));
    expect(r('Custom')).to.equal(null);
  });
});
