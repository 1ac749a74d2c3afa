import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { conforms } from '../helpers/contract.js';
import { startIcsServer, type IcsServer } from '../helpers/fakes/icsServer.js';
import { calendar } from '../helpers/fakes/icsText.js';

const P = '/api/v1/families/{familySlug}';

describe('the external calendar endpoints in the OpenAPI document', () => {
  let server: TestServer;
  let feeds: IcsServer;
  before(async () => {
    server = await startTestServer({ timezone: 'Europe/Berlin' });
    feeds = await startIcsServer();
    feeds.set('/cal.ics', {
      body: calendar(
        [
          {
            uid: 'a',
            summary: 'Weekly',
            lines: ['DTSTART;TZID=America/New_York:20261102T090000', 'RRULE:FREQ=WEEKLY'],
          },
          {
            uid: 'a',
            summary: 'Weekly (moved)',
            lines: [
              'RECURRENCE-ID;TZID=America/New_York:20261109T090000',
              'DTSTART;TZID=America/New_York:20261110T090000',
            ],
          },
        ],
        ['X-WR-CALNAME:Club'],
      ),
    });
    feeds.set('/gone.ics', { status: 404 });
  });
  after(async () => {
    await server.close();
    await feeds.close();
  });

  it('documents every answer they give, word for word', async () => {
    const link = await server.api.post('/calendar/external', {
      name: 'Club',
      url: feeds.url('/cal.ics'),
      color: 'gold',
      hint: 'moved',
    });
    expect(link.status).to.equal(201);
    await conforms(server, link, 'post', `${P}/calendar/external`);
    const id = link.body.sourceId;
    const answers: [Promise<any>, string, string, number][] = [
      [server.api.get('/calendar/external'), 'get', '/calendar/external', 200],
      [
        server.api.post('/calendar/external', { name: 'Club', url: feeds.url('/cal.ics') }),
        'post',
        '/calendar/external',
        409,
      ],
      [
        server.api.post('/calendar/external', { name: 'Gone', url: feeds.url('/gone.ics') }),
        'post',
        '/calendar/external',
        400,
      ],
      [
        server.api.post('/calendar/external/probe', { url: feeds.url('/cal.ics') }),
        'post',
        '/calendar/external/probe',
        200,
      ],
      [
        server.api.post('/calendar/external/probe', { url: feeds.url('/gone.ics') }),
        'post',
        '/calendar/external/probe',
        200,
      ],
      [
        server.api.patch(`/calendar/external/${id}`, { hint: 'club' }),
        'patch',
        '/calendar/external/{sourceId}',
        200,
      ],
      [
        server.api.patch(`/calendar/external/${id}`, { name: 'x' }),
        'patch',
        '/calendar/external/{sourceId}',
        400,
      ],
      [
        server.api.post(`/calendar/external/${id}/refresh`),
        'post',
        '/calendar/external/{sourceId}/refresh',
        200,
      ],
      [
        server.api.get('/calendar/events?from=2026-11-01&to=2026-11-30'),
        'get',
        '/calendar/events',
        200,
      ],
      [server.api.get('/calendar/events'), 'get', '/calendar/events', 200],
    ];
    for (const [p, method, path, status] of answers) {
      const r = await p;
      expect(r.status, `${method} ${path}`).to.equal(status);
      await conforms(server, r, method, `${P}${path}`);
    }
    const del = await server.api.delete(`/calendar/external/${id}`);
    await conforms(server, del, 'delete', `${P}/calendar/external/{sourceId}`);
    const missing = await server.api.delete(`/calendar/external/${id}`);
    expect(missing.status).to.equal(404);
    await conforms(server, missing, 'delete', `${P}/calendar/external/{sourceId}`);
  });
});
