import { expect } from 'chai';
import ICAL from 'ical.js';
import { windowsZone, zoneResolver } from '../../src/integrations/icsZones.js';
import { offsetSecondsAt } from '../../src/domain/shared/time.js';

function vtimezone(lines: string[]): ICAL.JCalComponent {
  const cal = ICAL.parse(
    ['BEGIN:VCALENDAR', ...lines, 'END:VCALENDAR', ''].join('\r\n'),
  ) as ICAL.JCalComponent;
  return cal[2][0];
}

const CUSTOM_CET = vtimezone([
  'BEGIN:VTIMEZONE',
  'TZID:(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna',
  'BEGIN:STANDARD',
  'DTSTART:16011028T030000',
  'RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10',
  'TZOFFSETFROM:+0200',
  'TZOFFSETTO:+0100',
  'END:STANDARD',
  'BEGIN:DAYLIGHT',
  'DTSTART:16010325T020000',
  'RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0200',
  'END:DAYLIGHT',
  'END:VTIMEZONE',
]);

describe('time zones of feeds', () => {
  it('maps Windows zone names to IANA zones, case-insensitively', () => {
    expect(windowsZone('W. Europe Standard Time')).to.equal('Europe/Berlin');
    expect(windowsZone('gmt standard time')).to.equal('Europe/London');
    expect(windowsZone('Eastern Standard Time')).to.equal('America/New_York');
    expect(windowsZone('Tokyo Standard Time')).to.equal('Asia/Tokyo');
    expect(windowsZone('Atlantis Standard Time')).to.equal(null);
  });

  it('resolves IANA names, also behind a vendor prefix', () => {
    const resolve = zoneResolver(new Map(), new Date('2026-11-22T00:00:00Z'));
    expect(resolve('Europe/Berlin')).to.equal('Europe/Berlin');
    expect(resolve('/mozilla.org/20050126_1/Europe/Berlin')).to.equal('Europe/Berlin');
    expect(resolve('/freeassociation.sourceforge.net/Tzfile/America/Los_Angeles')).to.equal(
      'America/Los_Angeles',
    );
    expect(resolve('Customized Time Zone')).to.equal(null); // and no VTIMEZONE to go by: floating
  });

  it("uses a VTIMEZONE's X-LIC-LOCATION, else finds a zone with the same offsets", () => {
    const named = vtimezone([
      'BEGIN:VTIMEZONE',
      'TZID:Mine',
      'X-LIC-LOCATION:America/Chicago',
      'BEGIN:STANDARD',
      'DTSTART:19700101T000000',
      'TZOFFSETFROM:-0600',
      'TZOFFSETTO:-0600',
      'END:STANDARD',
      'END:VTIMEZONE',
    ]);
    const india = vtimezone([
      'BEGIN:VTIMEZONE',
      'TZID:Customized Time Zone',
      'BEGIN:STANDARD',
      'DTSTART:16010101T000000',
      'TZOFFSETFROM:+0530',
      'TZOFFSETTO:+0530',
      'END:STANDARD',
      'END:VTIMEZONE',
    ]);
    const now = new Date('2026-11-22T00:00:00Z');
    const resolve = zoneResolver(
      new Map([
        ['Mine', named],
        ['Customized Time Zone', india],
        [CUSTOM_CET[1][0][3] as string, CUSTOM_CET],
      ]),
      now,
    );
    expect(resolve('Mine')).to.equal('America/Chicago');
    const kolkata = resolve('Customized Time Zone')!;
    for (const m of [0, 3, 6, 9])
      expect(offsetSecondsAt(new Date(Date.UTC(2026, m, 15)), kolkata)).to.equal(19_800);
    const cet = resolve('(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna')!;
    // Same offsets as Berlin through two years, both sides of each change.
    for (const at of [
      '2026-03-29T00:59:59Z',
      '2026-03-29T01:00:00Z',
      '2026-10-25T00:59:59Z',
      '2026-10-25T01:00:00Z',
      '2027-07-01T00:00:00Z',
    ]) {
      expect(offsetSecondsAt(new Date(at), cet), at).to.equal(
        offsetSecondsAt(new Date(at), 'Europe/Berlin'),
      );
    }
  });
});
