/**
 * Real clients with events written in three zones: vdirsyncer 0.19 syncs a local folder of
 * events in Berlin, New York and UTC time up to the daemon (a family in Berlin), a to-do list
 * made from a client (python-caldav's make_calendar with VTODO, since vdirsyncer makes only
 * plain calendars) is synced down and a local to-do up into it, and khal 0.10 reads the family
 * calendar as vdirsyncer syncs it into a fresh folder — the server's own rendering — with the
 * right local times on both sides of March's two daylight-saving switches (New York on the 8th,
 * Berlin on the 29th). A missing program skips the test, saying so.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server.js';
import {
  components,
  PYTHON_CALDAV_MISSING,
  PythonCaldav,
  pythonCaldav,
  run,
  vdirsyncer,
  VDIRSYNCER_MISSING,
} from './clients.js';

const khal = spawnSync('khal', ['--version'], { encoding: 'utf8' }).status === 0;
const KHAL_MISSING = 'khal is not installed (apt-get install khal): the khal read-back is skipped';

/** VTIMEZONEs as phones write them (the rules since 2007). */
const ZONES: Record<string, string[]> = {
  'Europe/Berlin': [
    'BEGIN:VTIMEZONE',
    'TZID:Europe/Berlin',
    'BEGIN:DAYLIGHT',
    'TZOFFSETFROM:+0100',
    'TZOFFSETTO:+0200',
    'DTSTART:19700329T020000',
    'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
    'END:DAYLIGHT',
    'BEGIN:STANDARD',
    'TZOFFSETFROM:+0200',
    'TZOFFSETTO:+0100',
    'DTSTART:19701025T030000',
    'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
    'END:STANDARD',
    'END:VTIMEZONE',
  ],
  'America/New_York': [
    'BEGIN:VTIMEZONE',
    'TZID:America/New_York',
    'BEGIN:DAYLIGHT',
    'TZOFFSETFROM:-0500',
    'TZOFFSETTO:-0400',
    'DTSTART:20070311T020000',
    'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU',
    'END:DAYLIGHT',
    'BEGIN:STANDARD',
    'TZOFFSETFROM:-0400',
    'TZOFFSETTO:-0500',
    'DTSTART:20071104T020000',
    'RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU',
    'END:STANDARD',
    'END:VTIMEZONE',
  ],
};

function vcalendar(...lines: string[]): string {
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//household-tests//local//EN',
    ...lines,
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

describe('vdirsyncer and khal with events written in three zones', function () {
  this.timeout(90_000);
  let server: TestServer;
  let dir: string;

  before(async function () {
    for (const [ok, why] of [
      [vdirsyncer, VDIRSYNCER_MISSING],
      [pythonCaldav, PYTHON_CALDAV_MISSING],
      [khal, KHAL_MISSING],
    ] as const) {
      if (!ok) {
        console.log(`      skipped: ${why}`);
        this.skip();
      }
    }
    server = await startTestServer({ timezone: 'Europe/Berlin' });
    dir = mkdtempSync(join(tmpdir(), 'household-zones-'));
  });
  after(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A vdirsyncer config of one pair: a local folder and the daemon's root. */
  function config(name: string, local: string, collections: string[]): string {
    const file = join(dir, `${name}.conf`);
    writeFileSync(
      file,
      [
        '[general]',
        `status_path = "${join(dir, `${name}-status`)}/"`,
        `[pair ${name}]`,
        `a = "${name}_local"`,
        `b = "${name}_remote"`,
        `collections = ${JSON.stringify(collections)}`,
        'conflict_resolution = "b wins"',
        `[storage ${name}_local]`,
        'type = "filesystem"',
        `path = "${local}/"`,
        'fileext = ".ics"',
        `[storage ${name}_remote]`,
        'type = "caldav"',
        `url = "${server.url}/"`,
        `username = "${server.slug}"`,
        `password = "${server.apiKey}"`,
        '',
      ].join('\n'),
    );
    return file;
  }

  async function vdir(conf: string, ...args: string[]): Promise<void> {
    const r = await run('vdirsyncer', ['-c', conf, ...args], {
      input: 'y\ny\ny\ny\n',
      seconds: 30,
    });
    expect(r.code, `vdirsyncer ${args.join(' ')}:\n${r.stdout}\n${r.stderr}`).to.equal(0);
  }

  it('syncs the three zones up, a client-made list both ways, and khal reads the calendar back in Berlin time', async () => {
    // 1. A local calendar of events written in three zones.
    const up = join(dir, 'up');
    mkdirSync(join(up, 'calendar'), { recursive: true });
    const file = (name: string, ...lines: string[]) =>
      writeFileSync(join(up, 'calendar', `${name}.ics`), vcalendar(...lines));
    file(
      'choir',
      ...ZONES['Europe/Berlin'],
      'BEGIN:VEVENT',
      'UID:choir@laptop.example',
      'DTSTAMP:20260201T120000Z',
      'DTSTART;TZID=Europe/Berlin:20260319T180000',
      'DTEND;TZID=Europe/Berlin:20260319T193000',
      'RRULE:FREQ=WEEKLY;COUNT=3',
      'SUMMARY:Choir',
      'END:VEVENT',
    );
    file(
      'new-york',
      ...ZONES['America/New_York'],
      'BEGIN:VEVENT',
      'UID:ny-call@laptop.example',
      'DTSTAMP:20260201T120000Z',
      'DTSTART;TZID=America/New_York:20260306T090000',
      'DTEND;TZID=America/New_York:20260306T100000',
      'RRULE:FREQ=WEEKLY;COUNT=5',
      'SUMMARY:Call with New York',
      'END:VEVENT',
    );
    file(
      'backup',
      'BEGIN:VEVENT',
      'UID:backup@laptop.example',
      'DTSTAMP:20260201T120000Z',
      'DTSTART:20260328T120000Z',
      'DURATION:PT1H',
      'RRULE:FREQ=DAILY;COUNT=3',
      'SUMMARY:Backup window',
      'END:VEVENT',
    );
    const upConf = config('up', up, ['calendar']);
    await vdir(upConf, 'discover');
    await vdir(upConf, 'sync');

    // REST holds each in its own zone, at the right instants.
    const listed = await server.api.get('/calendar/events?from=2026-03-01&to=2026-04-10&limit=50');
    expect(listed.status, listed.text).to.equal(200);
    const starts = (title: string) =>
      listed.body.events.filter((e: any) => e.title === title).map((e: any) => e.startsAt);
    expect(starts('Choir')).to.deep.equal([
      '2026-03-19T17:00:00.000Z',
      '2026-03-26T17:00:00.000Z',
      '2026-04-02T16:00:00.000Z',
    ]);
    expect(starts('Call with New York')).to.deep.equal([
      '2026-03-06T14:00:00.000Z',
      '2026-03-13T13:00:00.000Z',
      '2026-03-20T13:00:00.000Z',
      '2026-03-27T13:00:00.000Z',
      '2026-04-03T13:00:00.000Z',
    ]);
    expect(starts('Backup window')).to.deep.equal([
      '2026-03-28T12:00:00.000Z',
      '2026-03-29T12:00:00.000Z',
      '2026-03-30T12:00:00.000Z',
    ]);
    const zoneOf = (title: string) =>
      listed.body.events.find((e: any) => e.title === title).data.timeZone;
    expect(zoneOf('Call with New York')).to.equal('America/New_York');
    expect(zoneOf('Backup window')).to.equal('UTC');
    expect(zoneOf('Choir')).to.equal(undefined);

    // 2. A to-do list made from a client, synced down, and a local to-do synced up into it.
    const py = new PythonCaldav(60);
    try {
      await py.must({
        op: 'connect',
        url: `${server.url}/dav/`,
        username: server.slug,
        password: server.apiKey,
      });
      await py.must({ op: 'make_calendar', name: 'Packing', id: 'packing', components: ['VTODO'] });
    } finally {
      await py.close();
    }
    const listConf = config('up', up, ['calendar', 'packing']);
    await vdir(listConf, 'discover');
    await vdir(listConf, 'sync');
    writeFileSync(
      join(up, 'packing', 'sunscreen@laptop.example.ics'),
      vcalendar(
        'BEGIN:VTODO',
        'UID:sunscreen@laptop.example',
        'DTSTAMP:20260201T120000Z',
        'DUE;VALUE=DATE:20260701',
        'SUMMARY:Sunscreen',
        'DESCRIPTION:the big bottle',
        'END:VTODO',
      ),
    );
    await vdir(listConf, 'sync');
    const packing = await server.api.get('/trackers/packing/entries');
    expect(packing.status, packing.text).to.equal(200);
    expect(packing.body.entries.map((e: any) => [e.title, e.data])).to.deep.equal([
      ['Sunscreen', { due: '2026-07-01', notes: 'the big bottle' }],
    ]);

    // 3. A REST event in New York's zone, then the whole calendar synced into a fresh folder.
    const planning = await server.api.post('/calendar/events', {
      title: 'Planning call',
      date: '2026-03-10',
      time: '09:00',
      endTime: '09:30',
      timeZone: 'America/New_York',
    });
    expect(planning.status, planning.text).to.equal(201);
    const back = join(dir, 'back');
    mkdirSync(join(back, 'calendar'), { recursive: true });
    const backConf = config('back', back, ['calendar']);
    await vdir(backConf, 'discover');
    await vdir(backConf, 'sync');
    const served = readdirSync(join(back, 'calendar')).map((f) =>
      readFileSync(join(back, 'calendar', f), 'utf8'),
    );
    expect(served.flatMap((t) => components(t)).map((c) => c.DTSTART)).to.include.members([
      'TZID=America/New_York:20260306T090000',
      '20260328T120000Z',
    ]);

    // 4. khal reads the served calendar on a Berlin clock.
    const khalConf = join(dir, 'khal.conf');
    writeFileSync(
      khalConf,
      [
        '[calendars]',
        '[[family]]',
        `path = ${join(back, 'calendar')}/`,
        'type = calendar',
        '[locale]',
        'timeformat = %H:%M',
        'dateformat = %Y-%m-%d',
        'longdateformat = %Y-%m-%d',
        'datetimeformat = %Y-%m-%d %H:%M',
        'longdatetimeformat = %Y-%m-%d %H:%M',
        'local_timezone = Europe/Berlin',
        'default_timezone = Europe/Berlin',
        '[sqlite]',
        `path = ${join(dir, 'khal.db')}`,
        '',
      ].join('\n'),
    );
    const k = await run(
      'khal',
      [
        '-c',
        khalConf,
        'list',
        '--format',
        '{start} {title}',
        '--day-format',
        '',
        '2026-03-01',
        '45d',
      ],
      {
        env: { HOME: dir, XDG_CONFIG_HOME: dir, XDG_DATA_HOME: dir },
        seconds: 30,
      },
    );
    expect(k.code, k.stderr).to.equal(0);
    const shown = k.stdout.split('\n').filter((l) => l.trim() !== '');
    expect(shown).to.deep.equal([
      '2026-03-06 15:00 Call with New York',
      '2026-03-10 14:00 Planning call',
      '2026-03-13 14:00 Call with New York',
      '2026-03-19 18:00 Choir',
      '2026-03-20 14:00 Call with New York',
      '2026-03-26 18:00 Choir',
      '2026-03-27 14:00 Call with New York',
      '2026-03-28 13:00 Backup window',
      '2026-03-29 14:00 Backup window',
      '2026-03-30 14:00 Backup window',
      '2026-04-02 18:00 Choir',
      '2026-04-03 15:00 Call with New York',
    ]);
  });
});
