import { expect } from 'chai';
import Ajv2020 from 'ajv/dist/2020.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { conforms } from '../helpers/contract.js';
import { FakeClock } from '../helpers/clock.js';
import { PUBLIC_PLAN_SCHEMA } from '../../src/http/routes/plans.schema.js';
import {
  PLAN,
  PLANS,
  changesAfter,
  lastSeq,
  makeEvent,
  makePlan,
  sharePath,
  voterKey,
} from '../helpers/plans.js';

const AjvClass = (Ajv2020 as any).default ?? Ajv2020;

describe('plans over HTTP', () => {
  const clock = new FakeClock('2026-06-01T10:00:00.000Z');
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ now: clock.now, timezone: 'Europe/Berlin' });
  });
  after(() => server?.close());
  beforeEach(() => clock.set('2026-06-01T10:00:00.000Z'));

  describe('POST /plans', () => {
    it('creates a plan (201) and logs plan.created with the plan as the API shows it', async () => {
      const seq = await lastSeq(server.api);
      const r = await server.api.post('/plans', {
        title: 'Lake weekend',
        prose: 'Two nights at the cabin',
      });
      expect(r.status).to.equal(201);
      await conforms(server, r, 'post', PLANS);
      expect(r.body).to.include({ ok: true, title: 'Lake weekend' });
      expect(r.body.planId).to.match(/^plan_[0-9a-z]{20}$/);
      expect(r.body.plan).to.include({
        prose: 'Two nights at the cabin',
        when: 'Not scheduled',
        phase: 'unscheduled',
        archived: false,
        shareUrl: null,
      });
      const log = await changesAfter(server.api, seq);
      expect(log.map((c) => c.type)).to.deep.equal(['plan.created']);
      expect(log[0].object).to.deep.equal(r.body.plan);
    });

    it('refuses a missing or blank title and unknown fields (400), a read-only key and another family (403)', async () => {
      for (const [body, path] of [
        [{}, ['title']],
        [{ title: ' ' }, ['title']],
        [{ title: 'x', color: 'red' }, ['color']],
        [{ title: 'x', prose: 5 }, ['prose']],
      ] as const) {
        const r = await server.api.post('/plans', body);
        expect(r.status, JSON.stringify(body)).to.equal(400);
        expect(r.body.issues[0].path).to.deep.equal(path);
      }
      const read = await server.key({ scopes: ['read'] });
      expect((await server.api.post('/plans', { title: 'x' }, { key: read })).status).to.equal(403);
      expect((await server.api.get('/plans', { key: read })).status).to.equal(200);
      await server.family('neighbours-plans');
      expect(
        (
          await server.http.post(
            '/api/v1/families/neighbours-plans/plans',
            { title: 'x' },
            { key: server.apiKey },
          )
        ).status,
      ).to.equal(403);
      expect((await server.api.get('/plans', { key: null })).status).to.equal(401);
    });
  });

  describe('GET /plans', () => {
    it('lists plans newest first with when, phase, archived, eventCount and share state', async () => {
      const fam = await server.family('listing-plans', { timezone: 'Europe/Berlin' });
      const a = (await fam.client.post('/plans', { title: 'Older' })).body.planId;
      clock.advance(1000);
      const b = (await fam.client.post('/plans', { title: 'Newer' })).body.planId;
      const ev = await makeEvent(fam.client, { title: 'Drive', date: '2026-06-13', time: '09:00' });
      await fam.client.post(`/plans/${a}/events`, { eventId: ev });
      await fam.client.patch(`/plans/${b}`, { archived: true });
      const share = (await fam.client.post(`/plans/${a}/share`, { enabled: true })).body.shareUrl;
      const r = await fam.client.get('/plans');
      expect(r.status).to.equal(200);
      await conforms(server, r, 'get', PLANS);
      expect(r.body.plans.map((p: any) => p.title)).to.deep.equal(['Newer', 'Older']);
      expect(r.body.plans[0]).to.include({
        planId: b,
        archived: true,
        eventCount: 0,
        shareEnabled: false,
        shareUrl: null,
        phase: 'unscheduled',
        when: 'Not scheduled',
      });
      expect(r.body.plans[1]).to.include({
        planId: a,
        archived: false,
        eventCount: 1,
        shareEnabled: true,
        shareUrl: share,
        phase: 'upcoming',
        when: 'Sat, Jun 13, 2026',
      });
    });
  });

  describe('GET /plans/:planId', () => {
    it('answers the detail in the documented shape, and 404 for an unknown plan', async () => {
      const id = await makePlan(server.api, 'Detail', 'Some prose');
      const r = await server.api.get(`/plans/${id}`);
      expect(r.status).to.equal(200);
      await conforms(server, r, 'get', PLAN);
      expect(r.body).to.include({
        ok: true,
        planId: id,
        title: 'Detail',
        prose: 'Some prose',
        archived: false,
        shareUrl: null,
      });
      expect(r.body).to.deep.include({ events: [], notes: [], polls: [] });
      const missing = await server.api.get('/plans/plan_00000000000000000000');
      expect(missing.status).to.equal(404);
      await conforms(server, missing, 'get', PLAN);
    });
  });

  describe('phase and when', () => {
    it('follow the linked events in the family time zone: upcoming, happening, past', async () => {
      const id = await makePlan(server.api, 'Fair');
      await server.api.post(`/plans/${id}/events`, {
        eventId: await makeEvent(server.api, { title: 'Setup', date: '2026-06-13', allDay: true }),
      });
      await server.api.post(`/plans/${id}/events`, {
        eventId: await makeEvent(server.api, {
          title: 'Fair days',
          date: '2026-06-14',
          endDate: '2026-06-15',
        }),
      });
      const look = async () => (await server.api.get(`/plans/${id}`)).body;
      expect(await look()).to.include({ when: 'Jun 13 – 15, 2026', phase: 'upcoming' });
      clock.set('2026-06-12T22:30:00.000Z'); // 00:30 on Jun 13 in Berlin
      expect((await look()).phase).to.equal('happening');
      clock.set('2026-06-15T21:59:00.000Z'); // 23:59 on Jun 15 in Berlin
      expect((await look()).phase).to.equal('happening');
      clock.set('2026-06-15T22:00:00.000Z');
      expect((await look()).phase).to.equal('past');
    });
  });

  describe('PATCH /plans/:planId', () => {
    it('changes the fields sent, clears prose with null, and logs plan.updated with the previous version', async () => {
      const id = await makePlan(server.api, 'Party', 'Cake');
      const seq = await lastSeq(server.api);
      const r = await server.api.patch(`/plans/${id}`, { title: 'Birthday party', prose: null });
      expect(r.status).to.equal(200);
      await conforms(server, r, 'patch', PLAN);
      expect(r.body).to.include({
        ok: true,
        planId: id,
        title: 'Birthday party',
        archived: false,
        prose: null,
      });
      const log = await changesAfter(server.api, seq);
      expect(log.map((c) => c.type)).to.deep.equal(['plan.updated']);
      expect(log[0].object).to.include({ title: 'Birthday party', prose: null });
      expect(log[0].previous).to.include({ title: 'Party', prose: 'Cake' });
    });

    it('archives and unarchives; linked events stay', async () => {
      const id = await makePlan(server.api, 'Archive me');
      const ev = await makeEvent(server.api, { title: 'Thing', date: '2026-06-20' });
      await server.api.post(`/plans/${id}/events`, { eventId: ev });
      const a = await server.api.patch(`/plans/${id}`, { archived: true });
      expect(a.body).to.include({ archived: true });
      const detail = (await server.api.get(`/plans/${id}`)).body;
      expect(detail.archived).to.equal(true);
      expect(detail.events.map((e: any) => e.eventId)).to.deep.equal([ev]);
      expect((await server.api.patch(`/plans/${id}`, { archived: false })).body.archived).to.equal(
        false,
      );
    });

    it('needs at least one field (400), refuses unknown ones, 404 for an unknown plan', async () => {
      const id = await makePlan(server.api, 'P');
      const empty = await server.api.patch(`/plans/${id}`, {});
      expect(empty.status).to.equal(400);
      await conforms(server, empty, 'patch', PLAN);
      expect((await server.api.patch(`/plans/${id}`, { phase: 'past' })).status).to.equal(400);
      expect((await server.api.patch(`/plans/${id}`, { archived: 'yes' })).status).to.equal(400);
      expect(
        (await server.api.patch('/plans/plan_00000000000000000000', { title: 'x' })).status,
      ).to.equal(404);
    });
  });

  describe('DELETE /plans/:planId', () => {
    it('deletes notes, polls and the share link; linked events stay on the calendar', async () => {
      const id = await makePlan(server.api, 'Doomed');
      const ev = await makeEvent(server.api, { title: 'Keeps', date: '2026-06-21' });
      await server.api.post(`/plans/${id}/events`, { eventId: ev });
      await server.api.post(`/plans/${id}/notes`, { body: 'n', showOnSharedPage: true });
      await server.api.post(`/plans/${id}/polls`, {
        question: 'q',
        options: [{ label: 'a' }, { label: 'b' }],
      });
      const url = (await server.api.post(`/plans/${id}/share`, { enabled: true })).body.shareUrl;
      expect((await server.http.get(sharePath(url))).status).to.equal(200);
      const seq = await lastSeq(server.api);
      const r = await server.api.delete(`/plans/${id}`);
      expect(r.status).to.equal(200);
      await conforms(server, r, 'delete', PLAN);
      expect(r.body).to.deep.equal({ ok: true, planId: id });
      expect((await server.api.get(`/plans/${id}`)).status).to.equal(404);
      expect((await server.http.get(sharePath(url))).status).to.equal(404);
      const events = (await server.api.get('/calendar/events?from=2026-06-21&to=2026-06-21')).body
        .events;
      expect(events.map((e: any) => e.id)).to.include(ev);
      expect((await changesAfter(server.api, seq)).map((c) => c.type)).to.deep.equal([
        'plan.deleted',
      ]);
      expect((await server.api.delete(`/plans/${id}`)).status).to.equal(404);
    });
  });

  describe('POST /plans/:planId/events', () => {
    it('links (201), again answers 200 with the same body, and logs plan.event.linked once', async () => {
      const id = await makePlan(server.api, 'Linking');
      const ev = await makeEvent(server.api, {
        title: 'Dinner',
        date: '2026-06-05',
        time: '7:00 PM',
        endTime: '21:00',
        where: "Luigi's",
      });
      const seq = await lastSeq(server.api);
      const first = await server.api.post(`/plans/${id}/events`, { eventId: ev });
      expect(first.status).to.equal(201);
      await conforms(server, first, 'post', `${PLAN}/events`);
      expect(first.body).to.include({ ok: true, planId: id, eventId: ev });
      expect(first.body.event).to.deep.include({
        title: 'Dinner',
        location: "Luigi's",
        showDetailsOnShare: true,
        showLocationOnShare: false,
      });
      expect(first.body.event.timing).to.deep.equal({
        date: '2026-06-05',
        endDate: '2026-06-05',
        kind: 'timed',
        time: '19:00',
        endTime: '21:00',
      });
      const again = await server.api.post(`/plans/${id}/events`, { eventId: ev });
      expect(again.status).to.equal(200);
      await conforms(server, again, 'post', `${PLAN}/events`);
      // The OpenAPI builder lists one success status per route; the 200 body is the 201 body.
      expect(again.body).to.deep.equal(first.body);
      const log = await changesAfter(server.api, seq);
      expect(log.map((c) => c.type)).to.deep.equal(['plan.event.linked']);
      expect(log[0].object).to.deep.equal({ planId: id, ...first.body.event });
      const detail = (await server.api.get(`/plans/${id}`)).body;
      expect(detail.events).to.deep.equal([first.body.event]);
    });

    it('takes the share flags, and linking again with other flags changes them (200)', async () => {
      const id = await makePlan(server.api, 'Flags');
      const ev = await makeEvent(server.api, {
        title: 'Camp',
        date: '2026-07-01',
        endDate: '2026-07-03',
      });
      const r = await server.api.post(`/plans/${id}/events`, {
        eventId: ev,
        showDetailsOnShare: false,
        showLocationOnShare: true,
      });
      expect(r.body.event).to.include({ showDetailsOnShare: false, showLocationOnShare: true });
      expect(r.body.event.timing).to.include({
        kind: 'all-day',
        endDate: '2026-07-03',
        time: null,
      });
      const seq = await lastSeq(server.api);
      const again = await server.api.post(`/plans/${id}/events`, {
        eventId: ev,
        showDetailsOnShare: true,
      });
      expect(again.status).to.equal(200);
      expect(again.body.event).to.include({ showDetailsOnShare: true, showLocationOnShare: true });
      expect((await changesAfter(server.api, seq)).map((c) => c.type)).to.deep.equal([
        'plan.updated',
      ]);
    });

    it('answers 404 for an unknown event or plan, 400 without an eventId', async () => {
      const id = await makePlan(server.api, 'Nope');
      const r = await server.api.post(`/plans/${id}/events`, {
        eventId: 'ent_00000000000000000000',
      });
      expect(r.status).to.equal(404);
      await conforms(server, r, 'post', `${PLAN}/events`);
      const ev = await makeEvent(server.api, { title: 'x', date: '2026-06-02' });
      expect(
        (await server.api.post('/plans/plan_00000000000000000000/events', { eventId: ev })).status,
      ).to.equal(404);
      expect((await server.api.post(`/plans/${id}/events`, {})).status).to.equal(400);
      expect((await server.api.get(`/plans/${id}`)).body.events).to.deep.equal([]);
    });
  });

  describe('DELETE /plans/:planId/events/:eventId', () => {
    it('unlinks; the event stays on the calendar; not linked → 404', async () => {
      const id = await makePlan(server.api, 'Unlink');
      const ev = await makeEvent(server.api, { title: 'Stays', date: '2026-06-09' });
      await server.api.post(`/plans/${id}/events`, { eventId: ev });
      const seq = await lastSeq(server.api);
      const r = await server.api.delete(`/plans/${id}/events/${ev}`);
      expect(r.status).to.equal(200);
      await conforms(server, r, 'delete', `${PLAN}/events/{eventId}`);
      expect(r.body).to.deep.equal({ ok: true, planId: id, eventId: ev });
      expect((await changesAfter(server.api, seq)).map((c) => c.type)).to.deep.equal([
        'plan.event.unlinked',
      ]);
      expect((await server.api.get(`/plans/${id}`)).body.events).to.deep.equal([]);
      expect(
        (await server.api.get('/calendar/events?from=2026-06-09&to=2026-06-09')).body.events.map(
          (e: any) => e.id,
        ),
      ).to.include(ev);
      expect((await server.api.delete(`/plans/${id}/events/${ev}`)).status).to.equal(404);
    });

    it('happens by itself when the event is deleted from the calendar, in the same change', async () => {
      const a = await makePlan(server.api, 'One');
      const b = await makePlan(server.api, 'Two');
      const ev = await makeEvent(server.api, { title: 'Shared', date: '2026-06-10' });
      await server.api.post(`/plans/${a}/events`, { eventId: ev });
      await server.api.post(`/plans/${b}/events`, { eventId: ev });
      const seq = await lastSeq(server.api);
      expect((await server.api.delete(`/calendar/events/${ev}`)).status).to.equal(200);
      const log = await changesAfter(server.api, seq);
      expect(log.map((c) => c.type)).to.deep.equal([
        'calendar.event.deleted',
        'plan.event.unlinked',
        'plan.event.unlinked',
      ]);
      expect(new Set(log.map((c) => c.seq)).size).to.equal(3);
      expect(
        log
          .slice(1)
          .map((c) => c.object.planId)
          .sort(),
      ).to.deep.equal([a, b].sort());
      expect((await server.api.get(`/plans/${a}`)).body).to.deep.include({
        events: [],
        when: 'Not scheduled',
      });
      expect(
        (await server.api.get('/plans')).body.plans.find((p: any) => p.planId === b).eventCount,
      ).to.equal(0);
    });
  });

  describe('notes', () => {
    it("POST adds a note (201) at the end, off the shared page by default; the author is the key's name", async () => {
      const id = await makePlan(server.api, 'Notes');
      const seq = await lastSeq(server.api);
      const r = await server.api.post(`/plans/${id}/notes`, { body: 'Book the cabin' });
      expect(r.status).to.equal(201);
      await conforms(server, r, 'post', `${PLAN}/notes`);
      expect(r.body.noteId).to.match(/^note_/);
      expect(r.body.note).to.include({
        body: 'Book the cabin',
        author: 'test admin',
        onSharedPage: false,
      });
      const log = await changesAfter(server.api, seq);
      expect(log.map((c) => c.type)).to.deep.equal(['plan.note.created']);
      expect(log[0].object).to.deep.equal({ planId: id, ...r.body.note });
    });

    it("uses the display name of the key's person; PATCH keeps author and place and answers onSharedPage", async () => {
      const id = await makePlan(server.api, 'Authors');
      const first = (await server.api.post(`/plans/${id}/notes`, { body: 'first' })).body.noteId;
      const { key } = await voterKey(server, 'Grandma Rose');
      const second = await server.api.post(
        `/plans/${id}/notes`,
        { body: 'second', showOnSharedPage: true },
        { key },
      );
      expect(second.body.note.author).to.equal('Grandma Rose');
      const seq = await lastSeq(server.api);
      const r = await server.api.patch(`/plans/${id}/notes/${first}`, {
        body: 'first, edited',
        showOnSharedPage: true,
      });
      expect(r.status).to.equal(200);
      await conforms(server, r, 'patch', `${PLAN}/notes/{noteId}`);
      expect(r.body).to.include({ ok: true, noteId: first, onSharedPage: true });
      const notes = (await server.api.get(`/plans/${id}`)).body.notes;
      expect(notes.map((n: any) => [n.body, n.author, n.onSharedPage])).to.deep.equal([
        ['first, edited', 'test admin', true],
        ['second', 'Grandma Rose', true],
      ]);
      const log = await changesAfter(server.api, seq);
      expect(log.map((c) => c.type)).to.deep.equal(['plan.note.updated']);
      expect(log[0].previous).to.include({ body: 'first', onSharedPage: false });
    });

    it('PATCH needs a field (400); DELETE removes the note; unknown notes and plans → 404', async () => {
      const id = await makePlan(server.api, 'Del notes');
      const n = (await server.api.post(`/plans/${id}/notes`, { body: 'x' })).body.noteId;
      expect((await server.api.patch(`/plans/${id}/notes/${n}`, {})).status).to.equal(400);
      expect((await server.api.post(`/plans/${id}/notes`, { body: '   ' })).status).to.equal(400);
      expect((await server.api.post(`/plans/${id}/notes`, {})).status).to.equal(400);
      const seq = await lastSeq(server.api);
      const r = await server.api.delete(`/plans/${id}/notes/${n}`);
      expect(r.status).to.equal(200);
      await conforms(server, r, 'delete', `${PLAN}/notes/{noteId}`);
      expect((await changesAfter(server.api, seq)).map((c) => c.type)).to.deep.equal([
        'plan.note.deleted',
      ]);
      expect((await server.api.get(`/plans/${id}`)).body.notes).to.deep.equal([]);
      expect((await server.api.delete(`/plans/${id}/notes/${n}`)).status).to.equal(404);
      expect((await server.api.patch(`/plans/${id}/notes/${n}`, { body: 'y' })).status).to.equal(
        404,
      );
      expect(
        (await server.api.post('/plans/plan_00000000000000000000/notes', { body: 'y' })).status,
      ).to.equal(404);
    });
  });

  describe('POST /plans/:planId/share and GET /p/:token', () => {
    async function sharedPlan() {
      const id = await makePlan(
        server.api,
        "Tom & Ana's <party>",
        'Bring "snacks"\nand <script>alert(1)</script>',
      );
      const ev = await makeEvent(server.api, {
        title: 'Party at the hall',
        date: '2026-06-20',
        time: '15:00',
        endTime: '18:00',
        where: '12 Secret Lane',
      });
      const hidden = await makeEvent(server.api, {
        title: 'Buy presents',
        date: '2026-06-19',
        where: 'Mall',
      });
      const shown = await makeEvent(server.api, {
        title: 'Cleanup',
        date: '2026-06-21',
        where: 'Village hall',
      });
      await server.api.post(`/plans/${id}/events`, { eventId: ev });
      await server.api.post(`/plans/${id}/events`, {
        eventId: hidden,
        showDetailsOnShare: false,
        showLocationOnShare: true,
      });
      await server.api.post(`/plans/${id}/events`, { eventId: shown, showLocationOnShare: true });
      await server.api.post(`/plans/${id}/notes`, {
        body: 'Gifts: books <3',
        showOnSharedPage: true,
      });
      await server.api.post(`/plans/${id}/notes`, {
        body: 'Private: budget 200',
        showOnSharedPage: false,
      });
      const poll = (
        await server.api.post(`/plans/${id}/polls`, {
          question: 'Cake?',
          options: [{ label: 'Chocolate' }, { label: 'Lemon' }],
        })
      ).body.poll;
      const a = await voterKey(server, 'Voter A');
      const b = await voterKey(server, 'Voter B');
      await server.api.post(
        `/plans/${id}/polls/${poll.pollId}/vote`,
        { optionId: poll.options[0].optionId },
        { key: a.key },
      );
      await server.api.post(
        `/plans/${id}/polls/${poll.pollId}/vote`,
        { optionId: poll.options[0].optionId },
        { key: b.key },
      );
      const share = await server.api.post(`/plans/${id}/share`, { enabled: true });
      return { id, share };
    }

    it('enables sharing (200), logs plan.share.enabled, and keeps the same address across disable and enable', async () => {
      const id = await makePlan(server.api, 'Share');
      const seq = await lastSeq(server.api);
      const on = await server.api.post(`/plans/${id}/share`, { enabled: true });
      expect(on.status).to.equal(200);
      await conforms(server, on, 'post', `${PLAN}/share`);
      expect(on.body).to.include({ ok: true, enabled: true });
      expect(on.body.shareUrl).to.match(/^http:\/\/share\.test\/p\/pln_[0-9A-Za-z]{32}$/);
      expect(
        (await server.api.post(`/plans/${id}/share`, { enabled: true })).body.shareUrl,
      ).to.equal(on.body.shareUrl);
      expect((await server.api.get(`/plans/${id}`)).body.shareUrl).to.equal(on.body.shareUrl);
      const off = await server.api.post(`/plans/${id}/share`, { enabled: false });
      expect(off.body).to.deep.equal({ ok: true, enabled: false, shareUrl: null });
      expect((await server.api.get(`/plans/${id}`)).body.shareUrl).to.equal(null);
      const path = sharePath(on.body.shareUrl);
      expect((await server.http.get(path)).status).to.equal(404);
      expect(
        (await server.http.get(path, { headers: { accept: 'application/json' } })).status,
      ).to.equal(404);
      const back = await server.api.post(`/plans/${id}/share`, { enabled: true });
      expect(back.body.shareUrl).to.equal(on.body.shareUrl);
      expect((await server.http.get(path)).status).to.equal(200);
      const log = await changesAfter(server.api, seq);
      expect(log.map((c) => c.type)).to.deep.equal([
        'plan.share.enabled',
        'plan.share.disabled',
        'plan.share.enabled',
      ]);
      expect(log[0].object).to.deep.equal({
        planId: id,
        enabled: true,
        shareUrl: on.body.shareUrl,
      });
      expect((await server.api.post(`/plans/${id}/share`, {})).status).to.equal(400);
      expect(
        (await server.api.post('/plans/plan_00000000000000000000/share', { enabled: true })).status,
      ).to.equal(404);
    });

    it('renders a self-contained, escaped, phone-readable page honouring the flags', async () => {
      const { share } = await sharedPlan();
      // The page reads the family's locale (en-GB: 24-hour, day before month).
      await server.api.patch('', { locale: 'en-GB' });
      const r = await server.http.get(sharePath(share.body.shareUrl));
      await server.api.patch('', { locale: 'en' });
      expect(r.status).to.equal(200);
      await conforms(server, r, 'get', '/p/{token}');
      expect(r.headers.get('content-type')).to.match(/^text\/html; charset=utf-8/);
      expect(r.headers.get('cache-control')).to.equal('no-store');
      expect(r.headers.get('referrer-policy')).to.equal('no-referrer');
      expect(r.headers.get('content-security-policy')).to.contain("default-src 'none'");
      const html = r.text;
      expect(html).to.contain(
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
      );
      expect(html).to.contain('<h1 id="title">Tom &amp; Ana&#39;s &lt;party&gt;</h1>');
      expect(html).to.contain(
        'Bring &quot;snacks&quot;\nand &lt;script&gt;alert(1)&lt;/script&gt;',
      );
      expect(html).to.not.match(/<script/i);
      // Nothing loaded from anywhere: the only addresses are the inline icon and the page's own .ics.
      const token = sharePath(share.body.shareUrl).slice('/p/'.length);
      expect(
        [...html.matchAll(/\s(?:src|href)="([^"]*)"/gi)].map((m) => m[1].slice(0, 19)),
      ).to.deep.equal(['data:image/svg+xml,', `${token}.ics`.slice(0, 19)]);
      expect(html).to.contain('<html lang="en-GB" dir="ltr">');
      expect(html).to.contain('<p class="zone" id="zone">Times in <bdi>Europe/Berlin</bdi></p>');
      expect(html).to.match(/19\s–\s21 Jun 2026/);
      expect(html).to.contain('Party at the hall');
      expect(html).to.contain('Sat, 20 Jun 2026, 15:00 – 18:00');
      expect(html).to.not.contain('12 Secret Lane');
      expect(html).to.not.contain('Buy presents');
      expect(html).to.not.contain('Mall');
      expect(html).to.contain('Busy');
      expect(html).to.contain('Where: Village hall');
      expect(html).to.contain('Gifts: books &lt;3');
      expect(html).to.not.contain('budget');
      expect(html).to.contain('Cake?');
      expect(html).to.match(/Chocolate<\/span><span class="count">2 votes<\/span>/);
      expect(html).to.match(/Lemon<\/span><span class="count">0 votes<\/span>/);
    });

    it('answers the same content as JSON with Accept: application/json, and shows the plan live', async () => {
      const { id, share } = await sharedPlan();
      const path = sharePath(share.body.shareUrl);
      const r = await server.http.get(path, { headers: { accept: 'application/json' } });
      expect(r.status).to.equal(200);
      expect(r.headers.get('content-type')).to.match(/^application\/json/);
      const validate = new AjvClass({ strict: false, validateFormats: false }).compile(
        PUBLIC_PLAN_SCHEMA,
      );
      expect(validate(r.body), JSON.stringify(validate.errors)).to.equal(true);
      await conforms(server, r, 'get', '/p/{token}');
      expect(r.body).to.include({
        ok: true,
        title: "Tom & Ana's <party>",
        when: 'Jun 19 – 21, 2026',
        phase: 'upcoming',
        timezone: 'Europe/Berlin',
      });
      expect(r.body.events).to.deep.equal([
        {
          title: null,
          when: 'Fri, Jun 19, 2026',
          timing: {
            date: '2026-06-19',
            endDate: '2026-06-19',
            kind: 'all-day',
            time: null,
            endTime: null,
          },
        },
        {
          title: 'Party at the hall',
          when: 'Sat, Jun 20, 2026, 15:00 – 18:00',
          timing: {
            date: '2026-06-20',
            endDate: '2026-06-20',
            kind: 'timed',
            time: '15:00',
            endTime: '18:00',
          },
        },
        {
          title: 'Cleanup',
          when: 'Sun, Jun 21, 2026',
          location: 'Village hall',
          timing: {
            date: '2026-06-21',
            endDate: '2026-06-21',
            kind: 'all-day',
            time: null,
            endTime: null,
          },
        },
      ]);
      expect(r.body.notes).to.deep.equal([{ body: 'Gifts: books <3', author: 'test admin' }]);
      expect(r.body.polls[0].options.map((o: any) => [o.label, o.votes, o.chosen])).to.deep.equal([
        ['Chocolate', 2, false],
        ['Lemon', 0, false],
      ]);
      expect(JSON.stringify(r.body)).to.not.match(/plan_|ent_|note_|poll_|option_|person_/);
      await server.api.patch(`/plans/${id}`, { title: 'Renamed party' });
      expect(
        (await server.http.get(path, { headers: { accept: 'application/json' } })).body.title,
      ).to.equal('Renamed party');
    });

    it('answers 404 for unknown, malformed and calendar-share tokens, without a key', async () => {
      for (const p of [
        '/p/pln_00000000000000000000000000000000',
        '/p/nope',
        '/p/pln_%3Cscript%3E',
      ]) {
        const r = await server.http.get(p);
        expect(r.status, p).to.equal(404);
        expect(r.headers.get('content-type')).to.match(/text\/html/);
        const j = await server.http.get(p, { headers: { accept: 'application/json' } });
        expect(j.status).to.equal(404);
        expect(j.body).to.include({ ok: false, code: 'not_found' });
      }
      const cal = await server.api.post('/calendar/shares', { name: 'Everything' });
      expect(cal.status).to.equal(201);
      expect((await server.http.get(`/p/${cal.body.token}`)).status).to.equal(404);
    });
  });

  it('documents every plans route in the OpenAPI document', async () => {
    const doc = (await server.http.get('/api/v1/openapi.json')).body;
    const ops: string[] = [];
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      if (path.includes('/plans') || path.startsWith('/p/'))
        for (const m of Object.keys(item)) ops.push(`${m.toUpperCase()} ${path}`);
    }
    expect(ops.filter((o) => o.includes('/plans'))).to.have.length(21);
    expect(ops).to.include('GET /p/{token}');
  });
});
