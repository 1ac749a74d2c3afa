/** Small iCalendar bodies for tests, written the way calendar programs write them (CRLF). */

export interface VEvent {
  uid: string;
  summary: string;
  /** Property lines as written, e.g. `DTSTART;TZID=Europe/Berlin:20261123T090000`. */
  lines: string[];
  description?: string;
}

export function vevent(e: VEvent): string[] {
  return [
    'BEGIN:VEVENT',
    `UID:${e.uid}`,
    'DTSTAMP:20261101T000000Z',
    `SUMMARY:${e.summary}`,
    ...(e.description ? [`DESCRIPTION:${e.description}`] : []),
    ...e.lines,
    'END:VEVENT',
  ];
}

export function calendar(events: VEvent[], head: string[] = []): string {
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Test//Feeds//EN',
    ...head,
    ...events.flatMap(vevent),
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

/** `n` one-hour events, one every `stepHours` from 2026-11-01 00:00 UTC. */
export function manyEvents(n: number, stepHours = 1, dtstamp = '20261101T000000Z'): string {
  const out = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//Bulk//EN', 'X-WR-CALNAME:Bulk'];
  const start = Date.UTC(2026, 10, 1);
  for (let i = 0; i < n; i++) {
    const s = new Date(start + i * stepHours * 3_600_000)
      .toISOString()
      .replace(/[-:]/g, '')
      .slice(0, 15);
    out.push(
      'BEGIN:VEVENT',
      `UID:bulk-${i}@test`,
      `DTSTAMP:${dtstamp}`,
      `DTSTART:${s}Z`,
      'DURATION:PT1H',
      `SUMMARY:Event ${i}`,
      'END:VEVENT',
    );
  }
  out.push('END:VCALENDAR', '');
  return out.join('\r\n');
}
