/**
 * A display shows every event of its calendars and people in its days, whatever else the family's
 * calendars hold: its calendars and people are part of the listing's filter, not applied to a page
 * of 50 of every calendar's events afterwards (docs/display.md; docs/api.md, "Lists").
 */
import { expect } from 'chai';
import { FakeClock } from '../helpers/clock.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('a display among busy calendars', function () {
  this.timeout(60_000);
  // 10:00 in Berlin on a Wednesday.
  const clock = new FakeClock('2026-06-10T08:00:00.000Z');
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ now: clock.now, timezone: 'Europe/Berlin' });
  });
  after(() => server?.close());

  it('shows its own calendar’s event on its last day beside 30 daily series of another calendar', async () => {
    const made = await server.api.post('/displays', { name: 'Hallway', calendars: ['calendar'] });
    expect(made.status, made.text).to.equal(201);
    const token = (made.body as { token: string }).token;
    const view = async () =>
      (await server.http.get(`/display/${token}`, { headers: { accept: 'application/json' } }))
        .body as { days: { date: string; events: { title: string }[] }[] };
    const days = (await view()).days;
    const last = days[days.length - 1].date;
    const work = await server.api.post('/trackers', { name: 'Work', category: 'calendar' });
    expect(work.status, work.text).to.equal(201);
    for (let i = 0; i < 30; i++) {
      const r = await server.api.post('/calendar/events', {
        title: `Shift ${i}`,
        date: '2026-06-01',
        time: `${String(6 + (i % 12)).padStart(2, '0')}:${i < 12 ? '00' : i < 24 ? '20' : '40'}`,
        repeatFrequency: 'daily',
        calendarKey: 'work',
      });
      expect(r.status, r.text).to.equal(201);
    }
    const swim = await server.api.post('/calendar/events', {
      title: 'Swimming',
      date: last,
      time: '20:00',
    });
    expect(swim.status, swim.text).to.equal(201);
    const shown = await view();
    expect(shown.days.flatMap((d) => d.events.map((e) => e.title))).to.deep.equal(['Swimming']);
    expect(shown.days[shown.days.length - 1].events.map((e) => e.title)).to.deep.equal([
      'Swimming',
    ]);
  });
});
