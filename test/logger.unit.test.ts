/**
 * The daemon's log lines (src/logger.ts): JSON unless a person watches (stdout a terminal, or
 * `log.format: pretty`), then one readable line each — time, level, message (a request as
 * method, route, status and duration), the other fields as key=value, an error's stack below —
 * and still never a key or token.
 */
import { expect } from 'chai';
import { Writable } from 'node:stream';
import { createLogger } from '../src/logger.js';
import { prettyDestination, prettyLine, prettyWanted } from '../src/logFormat.js';

/** Local HH:MM:SS.mmm of an ISO time, as the readable line writes it. */
const local = (iso: string) => {
  const d = new Date(iso);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
};

describe('log lines', () => {
  const time = '2026-11-22T08:30:00.120Z';

  it('writes a request as method, route, status and duration, then the rest as key=value', () => {
    const line = JSON.stringify({
      level: 30,
      time,
      service: 'household-organizer',
      requestId: 'r-1',
      method: 'GET',
      route: '/api/v1/families/:familySlug/people',
      status: 200,
      durationMs: 3.1,
      family: 'home',
      keyId: null,
      ip: '127.0.0.1',
      userAgent: 'curl/8.5.0',
      msg: 'request',
    });
    expect(prettyLine(line, false)).to.equal(
      `${local(time)} INFO  GET /api/v1/families/:familySlug/people 200 3.1ms  requestId=r-1 family=home ip=127.0.0.1 userAgent=curl/8.5.0\n`,
    );
  });

  it('writes other lines as their message, quotes values with spaces, and puts a stack below', () => {
    expect(
      prettyLine(
        JSON.stringify({
          level: 40,
          time,
          msg: 'the first family has no active API key',
          family: 'home',
        }),
        false,
      ),
    ).to.equal(`${local(time)} WARN  the first family has no active API key  family=home\n`);
    const failed = prettyLine(
      JSON.stringify({
        level: 50,
        time,
        msg: 'request failed',
        method: 'POST',
        route: null,
        path: '/x',
        status: 500,
        durationMs: 2,
        error: { type: 'Error', message: 'disk on fire', stack: 'Error: disk on fire\n    at x' },
      }),
      false,
    );
    expect(failed).to.equal(
      `${local(time)} ERROR POST /x 500 2ms (failed)  error={"type":"Error","message":"disk on fire"}\n` +
        '    Error: disk on fire\n        at x\n',
    );
    expect(prettyLine('not json', false)).to.equal('not json\n');
    // On a terminal the level is coloured.
    expect(prettyLine(JSON.stringify({ level: 30, time, msg: 'hi' }), true)).to.include(
      '\x1b[32mINFO \x1b[0m',
    );
  });

  it('is readable on a terminal with log.format auto (the default), JSON when piped or collected', () => {
    expect(prettyWanted('auto', true)).to.equal(true);
    expect(prettyWanted('auto', false)).to.equal(false);
    expect(prettyWanted('pretty', false)).to.equal(true);
    expect(prettyWanted('json', true)).to.equal(false);
  });

  it('goes through pino: readable with format pretty, JSON with json, never a key either way', () => {
    for (const format of ['pretty', 'json'] as const) {
      let out = '';
      const sink = { write: (t: string) => (out += t), isTTY: false };
      const logger = createLogger(
        'info',
        format === 'pretty'
          ? prettyDestination(sink)
          : new Writable({ write: (c, _e, cb) => ((out += String(c)), cb()) }),
        format,
      );
      logger.info({ family: 'home', apiKey: 'hk_secret', token: 'shr_secret' }, 'made a key');
      logger.flush?.();
      if (format === 'pretty')
        expect(out).to.match(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}made a key {2}family=home\n$/);
      else expect(JSON.parse(out)).to.include({ msg: 'made a key', family: 'home' });
      expect(out).to.not.include('secret');
    }
  });
});
