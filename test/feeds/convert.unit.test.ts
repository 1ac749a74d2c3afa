import { expect } from 'chai';
import { feedItems } from '../../src/domain/feeds/convert.js';
import { parseIcs } from '../../src/integrations/icsParse.js';
import type { FeedItem } from '../../src/domain/feeds/types.js';

function items(events: string[][], head: string[] = [], zone = 'Europe/Berlin'): FeedItem[] {
  const body = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    ...head,
    ...events.flatMap((e) => ['BEGIN:VEVENT', ...e, 'END:VEVENT']),
    'END:VCALENDAR',
    '',
  ].join('\r\n');
  return feedItems(
    parseIcs(body, { defaultZone: zone, now: new Date('2026-11-22T00:00:00Z') }),
    zone,
  );
}

describe('reading VEVENTs into feed items', () => {
  it('reads all-day events: DTEND exclusive, DTEND = DTSTART or none is one day, DURATION in days', () => {
    const got = items([
      ['UID:a', 'SUMMARY:A', 'DTSTART;VALUE=DATE:20261201', 'DTEND;VALUE=DATE:20261204'],
      ['UID:b', 'SUMMARY:B', 'DTSTART;VALUE=DATE:20261201', 'DTEND;VALUE=DATE:20261201'],
      ['UID:c', 'SUMMARY:C', 'DTSTART;VALUE=DATE:20261201'],
      ['UID:d', 'SUMMARY:D', 'DTSTART;VALUE=DATE:20261201', 'DURATION:P2D'],
    ]);
    expect(got.map((i) => i.data)).to.deep.equal([
      { date: '2026-12-01', endDate: '2026-12-03', allDay: true },
      { date: '2026-12-01', allDay: true },
      { date: '2026-12-01', allDay: true },
      { date: '2026-12-01', endDate: '2026-12-02', allDay: true },
    ]);
  });

  it("reads floating times in X-WR-TIMEZONE, else in the family's zone, never the process's", () => {
    const ev = [['UID:f', 'SUMMARY:F', 'DTSTART:20261201T090000', 'DTEND:20261201T100000']];
    expect(items(ev, [], 'Europe/Berlin')[0].data).to.include({ time: '09:00', endTime: '10:00' });
    expect(items(ev, ['X-WR-TIMEZONE:America/New_York'], 'Europe/Berlin')[0].data).to.include({
      time: '15:00',
      endTime: '16:00',
    });
    expect(items(ev, [], 'Asia/Tokyo')[0].data).to.include({ time: '09:00' });
  });

  it('removes occurrences named by EXDATE as DATE-TIME (several values) or as DATE', () => {
    const [item] = items([
      [
        'UID:s',
        'SUMMARY:S',
        'DTSTART;TZID=Europe/Berlin:20261102T160000',
        'DTEND;TZID=Europe/Berlin:20261102T170000',
        'RRULE:FREQ=WEEKLY;COUNT=5',
        'EXDATE;TZID=Europe/Berlin:20261109T160000,20261116T160000',
        'EXDATE;VALUE=DATE:20261123',
      ],
    ]);
    expect(item.exceptions).to.deep.equal({
      '2026-11-09': { removed: true },
      '2026-11-16': { removed: true },
      '2026-11-23': { removed: true },
    });
  });

  it('keeps overrides on their series, removes cancelled ones, and lets orphaned ones stand alone', () => {
    const got = items([
      [
        'UID:s',
        'SUMMARY:Choir',
        'DTSTART;TZID=Europe/Berlin:20261102T160000',
        'DTEND;TZID=Europe/Berlin:20261102T170000',
        'RRULE:FREQ=WEEKLY;COUNT=4',
      ],
      [
        'UID:s',
        'SUMMARY:Choir (hall B)',
        'RECURRENCE-ID;TZID=Europe/Berlin:20261109T160000',
        'DTSTART;TZID=Europe/Berlin:20261110T163000',
        'DTEND;TZID=Europe/Berlin:20261110T173000',
        'LOCATION:Hall B',
      ],
      [
        'UID:s',
        'SUMMARY:Choir',
        'STATUS:CANCELLED',
        'RECURRENCE-ID;TZID=Europe/Berlin:20261116T160000',
        'DTSTART;TZID=Europe/Berlin:20261116T160000',
      ],
      [
        'UID:s',
        'SUMMARY:Choir extra',
        'RECURRENCE-ID;TZID=Europe/Berlin:20261118T160000',
        'DTSTART;TZID=Europe/Berlin:20261118T160000',
      ],
      ['UID:lost', 'SUMMARY:Orphan', 'RECURRENCE-ID:20261201T090000Z', 'DTSTART:20261202T090000Z'],
      ['UID:gone', 'SUMMARY:Gone', 'STATUS:CANCELLED', 'DTSTART:20261203T090000Z'],
    ]);
    expect(got.map((i) => [i.key, i.title])).to.deep.equal([
      ['s\n', 'Choir'],
      ['s\n2026-11-18T15:00:00Z', 'Choir extra'],
      ['lost\n2026-12-01T09:00:00Z', 'Orphan'],
    ]);
    expect(got[0].exceptions).to.deep.equal({
      '2026-11-09': {
        title: 'Choir (hall B)',
        data: { date: '2026-11-10', time: '16:30', endTime: '17:30', where: 'Hall B' },
      },
      '2026-11-16': { removed: true },
    });
  });

  it('gives every master of a UID its own identity and names events without UID by start and title', () => {
    const got = items([
      ['UID:dup', 'SUMMARY:First', 'SEQUENCE:1', 'DTSTART;VALUE=DATE:20261201'],
      ['UID:dup', 'SUMMARY:Second', 'SEQUENCE:3', 'DTSTART;VALUE=DATE:20261208'],
      ['SUMMARY:No uid', 'DTSTART;VALUE=DATE:20261210'],
    ]);
    expect(got.map((i) => i.key)).to.deep.equal(['dup\n', 'dup\n#2026-12-01', `${got[2].uid}\n`]);
    expect(got[0].title).to.equal('Second');
    expect(got[2].uid).to.match(/^nouid-/);
    expect(items([['SUMMARY:No uid', 'DTSTART;VALUE=DATE:20261210']])[0].uid).to.equal(got[2].uid);
  });

  it('fingerprints what the household sees: DTSTAMP and SEQUENCE do not count, a title does', () => {
    const base = ['UID:x', 'DTSTART;TZID=Europe/Berlin:20261201T090000'];
    const a = items([[...base, 'SUMMARY:A', 'DTSTAMP:20260101T000000Z', 'SEQUENCE:1']])[0];
    const b = items([[...base, 'SUMMARY:A', 'DTSTAMP:20261122T000000Z', 'SEQUENCE:7']])[0];
    const c = items([[...base, 'SUMMARY:B', 'DTSTAMP:20260101T000000Z']])[0];
    expect(b.fingerprint).to.equal(a.fingerprint);
    expect(c.fingerprint).not.to.equal(a.fingerprint);
  });

  it('refuses a body that is not iCalendar, or that has more than 20,000 events', () => {
    expect(() => parseIcs('<html>', { defaultZone: 'UTC', now: new Date() })).to.throw(
      'is not an iCalendar feed (it starts with "<html>")',
    );
    const many = [
      'BEGIN:VCALENDAR',
      ...Array.from(
        { length: 20_001 },
        (_, i) => `BEGIN:VEVENT\r\nUID:${i}\r\nDTSTART:20261201\r\nEND:VEVENT`,
      ),
      'END:VCALENDAR',
    ].join('\r\n');
    expect(() => parseIcs(many, { defaultZone: 'UTC', now: new Date() })).to.throw(
      'has 20001 events, more than the 20,000 a feed may have',
    );
  });
});
