/**
 * When a to-do happens (src/caldav/todoTimes.ts): each row of RFC 4791 §9.9's VTODO table on both
 * sides, a DUE written as a date, and the instances of a repeating to-do with a removed and a
 * changed occurrence.
 */
import { expect } from 'chai';
import { parseTree } from '../../src/caldav/icalTree.js';
import { instanceOverlaps, todoInstances, type TodoInstance } from '../../src/caldav/todoTimes.js';

const H = 3_600_000;
const T0 = Date.UTC(2026, 10, 10, 12); // 10 Nov 2026 12:00Z
const range = (from: number, to: number) => ({ start: T0 + from * H, end: T0 + to * H });
const todo = (comp: TodoInstance['comp'] = { name: 'VTODO', props: [], comps: [] }) => comp;

describe('todoTimes: a to-do in a time range (RFC 4791 §9.9)', () => {
  it('DTSTART with DURATION: overlaps the span from start to start + duration', () => {
    const i = { comp: todo(), start: T0, durationMs: 2 * H };
    expect(instanceOverlaps(i, range(1, 3))).to.equal(true);
    expect(instanceOverlaps(i, range(-2, 0))).to.equal(false);
    expect(instanceOverlaps(i, range(2.5, 4))).to.equal(false);
  });

  it('DTSTART with DUE: overlaps from start to due', () => {
    const i = { comp: todo(), start: T0, due: T0 + 3 * H };
    expect(instanceOverlaps(i, range(2, 5))).to.equal(true);
    expect(instanceOverlaps(i, range(-1, 0))).to.equal(false);
    expect(instanceOverlaps(i, range(4, 5))).to.equal(false);
  });

  it('DTSTART alone: the range must hold the start', () => {
    const i = { comp: todo(), start: T0 };
    expect(instanceOverlaps(i, range(-1, 1))).to.equal(true);
    expect(instanceOverlaps(i, range(0.5, 1))).to.equal(false);
    expect(instanceOverlaps(i, range(-1, 0))).to.equal(false);
  });

  it('DUE alone: the range must hold the due time (end included, start not)', () => {
    const i = { comp: todo(), due: T0 };
    expect(instanceOverlaps(i, range(-1, 0))).to.equal(true);
    expect(instanceOverlaps(i, range(0, 1))).to.equal(false);
  });

  it('COMPLETED alone: the range must hold it; nothing at all: every range', () => {
    expect(instanceOverlaps({ comp: todo(), completed: T0 }, range(-1, 1))).to.equal(true);
    expect(instanceOverlaps({ comp: todo(), completed: T0 }, range(1, 2))).to.equal(false);
    expect(instanceOverlaps({ comp: todo() }, range(-1000, -999))).to.equal(true);
  });

  it('reads a DUE written as a date as due by the end of that day, on the family clock', () => {
    const root = parseTree(
      'BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:x\r\nDUE;VALUE=DATE:20261110\r\nEND:VTODO\r\nEND:VCALENDAR\r\n',
    );
    const day = (d: number) => ({
      start: Date.UTC(2026, 10, d - 1, 23),
      end: Date.UTC(2026, 10, d, 23),
    });
    const now = new Date(T0);
    expect([...todoInstances(root, 'Europe/Berlin', now, day(10))]).to.have.length(1);
    expect([...todoInstances(root, 'Europe/Berlin', now, day(11))]).to.have.length(0);
    expect([...todoInstances(root, 'Europe/Berlin', now, day(9))]).to.have.length(0);
  });

  it('gives a weekly to-do one instance a week, less an EXDATE, with a changed occurrence in its own place', () => {
    const root = parseTree(
      [
        'BEGIN:VCALENDAR',
        'BEGIN:VTODO',
        'UID:w',
        'DTSTART:20261102T070000Z',
        'DUE:20261102T080000Z',
        'RRULE:FREQ=WEEKLY;COUNT=4',
        'EXDATE:20261109T070000Z',
        'END:VTODO',
        'BEGIN:VTODO',
        'UID:w',
        'RECURRENCE-ID:20261116T070000Z',
        'DTSTART:20261117T100000Z',
        'DUE:20261117T110000Z',
        'END:VTODO',
        'END:VCALENDAR',
        '',
      ].join('\r\n'),
    );
    const all = [
      ...todoInstances(root, 'UTC', new Date(T0), {
        start: Date.UTC(2026, 10, 1),
        end: Date.UTC(2026, 11, 31),
      }),
    ];
    expect(all.map((i) => new Date(i.start!).toISOString()).sort()).to.deep.equal([
      '2026-11-02T07:00:00.000Z',
      '2026-11-17T10:00:00.000Z',
      '2026-11-23T07:00:00.000Z',
    ]);
    const shifted = all.find((i) => i.start === Date.UTC(2026, 10, 23, 7))!;
    expect(shifted.due).to.equal(Date.UTC(2026, 10, 23, 8));
  });
});
