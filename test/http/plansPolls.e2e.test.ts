import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { conforms } from '../helpers/contract.js';
import { FakeClock } from '../helpers/clock.js';
import { PLAN, POLL, changesAfter, lastSeq, makePlan, voterKey } from '../helpers/plans.js';

describe('plan polls over HTTP', () => {
  const clock = new FakeClock('2026-05-01T10:00:00.000Z');
  let server: TestServer;
  let ana: { key: string; personId: string };
  let bo: { key: string; personId: string };
  before(async () => {
    server = await startTestServer({ now: clock.now, timezone: 'America/New_York' });
    ana = await voterKey(server, 'Ana');
    bo = await voterKey(server, 'Bo');
  });
  after(() => server?.close());

  const OPTIONS = [
    { label: 'Early June', date: '2026-06-13', endDate: '2026-06-15' },
    { label: 'Saturday tea', date: '2026-06-20', time: '3:30 PM', endTime: '17:00' },
    { label: 'Whenever' },
  ];

  async function makePoll(planId: string, options: object[] = OPTIONS) {
    const r = await server.api.post(`/plans/${planId}/polls`, {
      question: 'Which weekend?',
      options,
    });
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    return r.body.poll as { pollId: string; options: { optionId: string }[] };
  }

  async function pollOf(planId: string, pollId: string, key?: string) {
    const d = (await server.api.get(`/plans/${planId}`, key ? { key } : {})).body;
    return d.polls.find((p: any) => p.pollId === pollId);
  }

  describe('POST /plans/:planId/polls', () => {
    it('creates an open poll (201) with time text out as 3:30 PM, and logs plan.poll.created', async () => {
      const plan = await makePlan(server.api);
      const seq = await lastSeq(server.api);
      const r = await server.api.post(`/plans/${plan}/polls`, {
        question: 'Which weekend?',
        options: OPTIONS,
      });
      expect(r.status).to.equal(201);
      await conforms(server, r, 'post', `${PLAN}/polls`);
      expect(r.body.pollId).to.match(/^poll_/);
      const poll = r.body.poll;
      expect(poll).to.include({
        question: 'Which weekend?',
        status: 'open',
        settledOptionId: null,
        myVoteOptionId: null,
      });
      expect(poll.options.map((o: any) => ({ ...o, optionId: undefined }))).to.deep.equal([
        {
          optionId: undefined,
          label: 'Early June',
          date: '2026-06-13',
          endDate: '2026-06-15',
          time: null,
          endTime: null,
          votes: 0,
        },
        {
          optionId: undefined,
          label: 'Saturday tea',
          date: '2026-06-20',
          endDate: null,
          time: '3:30 PM',
          endTime: '5:00 PM',
          votes: 0,
        },
        {
          optionId: undefined,
          label: 'Whenever',
          date: null,
          endDate: null,
          time: null,
          endTime: null,
          votes: 0,
        },
      ]);
      expect(poll.options[0].optionId).to.match(/^option_/);
      const log = await changesAfter(server.api, seq);
      expect(log.map((c) => c.type)).to.deep.equal(['plan.poll.created']);
      expect(log[0].object).to.include({ planId: plan, pollId: r.body.pollId });
      expect((await server.api.get(`/plans/${plan}`)).body.polls).to.deep.equal([poll]);
    });

    it('refuses fewer than 2 or more than 12 options, options without label or date, invalid dates and times (400)', async () => {
      const plan = await makePlan(server.api);
      const cases: [object, (string | number)[]][] = [
        [{ question: 'q', options: [{ label: 'a' }] }, ['options']],
        [
          { question: 'q', options: Array.from({ length: 13 }, (_, i) => ({ label: `o${i}` })) },
          ['options'],
        ],
        [{ question: 'q', options: [{ label: 'a' }, {}] }, ['options', 1]],
        [
          { question: 'q', options: [{ label: 'a' }, { date: '2026-02-29' }] },
          ['options', 1, 'date'],
        ],
        [
          { question: 'q', options: [{ label: 'a' }, { date: '2026-06-01', time: '25:00' }] },
          ['options', 1, 'time'],
        ],
        [
          { question: 'q', options: [{ label: 'a' }, { label: 'b', time: '10:00' }] },
          ['options', 1, 'time'],
        ],
        [
          {
            question: 'q',
            options: [{ label: 'a' }, { date: '2026-06-02', endDate: '2026-06-01' }],
          },
          ['options', 1, 'endDate'],
        ],
        [
          { question: 'q', options: [{ label: 'a' }, { label: 'b', colour: 'red' }] },
          ['options', 1, 'colour'],
        ],
        [{ options: [{ label: 'a' }, { label: 'b' }] }, ['question']],
      ];
      for (const [body, path] of cases) {
        const r = await server.api.post(`/plans/${plan}/polls`, body);
        expect(r.status, JSON.stringify(body)).to.equal(400);
        expect(r.body.issues[0].path, JSON.stringify(body)).to.deep.equal(path);
      }
      expect(
        (
          await server.api.post(`/plans/${plan}/polls`, {
            question: 'q',
            options: [{ date: '2028-02-29' }, { label: 'b' }],
          })
        ).status,
      ).to.equal(201);
      expect(
        (
          await server.api.post('/plans/plan_00000000000000000000/polls', {
            question: 'q',
            options: OPTIONS,
          })
        ).status,
      ).to.equal(404);
    });
  });

  describe('PATCH and DELETE /plans/:planId/polls/:pollId', () => {
    it('changes the question of an open poll, logged as plan.updated', async () => {
      const plan = await makePlan(server.api);
      const poll = await makePoll(plan);
      const seq = await lastSeq(server.api);
      const r = await server.api.patch(`/plans/${plan}/polls/${poll.pollId}`, {
        question: 'Which weekend works?',
      });
      expect(r.status).to.equal(200);
      await conforms(server, r, 'patch', POLL);
      expect(r.body).to.include({ ok: true, pollId: poll.pollId });
      expect(r.body.poll.question).to.equal('Which weekend works?');
      expect((await changesAfter(server.api, seq)).map((c) => c.type)).to.deep.equal([
        'plan.updated',
      ]);
      expect((await server.api.patch(`/plans/${plan}/polls/${poll.pollId}`, {})).status).to.equal(
        400,
      );
      expect(
        (
          await server.api.patch(`/plans/${plan}/polls/poll_00000000000000000000`, {
            question: 'x',
          })
        ).status,
      ).to.equal(404);
    });

    it('deletes a poll with its votes (open or settled) and logs plan.poll.deleted', async () => {
      const plan = await makePlan(server.api);
      const poll = await makePoll(plan);
      await server.api.post(
        `/plans/${plan}/polls/${poll.pollId}/vote`,
        { optionId: poll.options[0].optionId },
        { key: ana.key },
      );
      const seq = await lastSeq(server.api);
      const r = await server.api.delete(`/plans/${plan}/polls/${poll.pollId}`);
      expect(r.status).to.equal(200);
      await conforms(server, r, 'delete', POLL);
      expect(r.body).to.deep.equal({ ok: true, pollId: poll.pollId });
      expect((await changesAfter(server.api, seq)).map((c) => c.type)).to.deep.equal([
        'plan.poll.deleted',
      ]);
      expect((await server.api.get(`/plans/${plan}`)).body.polls).to.deep.equal([]);
      expect((await server.api.delete(`/plans/${plan}/polls/${poll.pollId}`)).status).to.equal(404);
    });
  });

  describe('options', () => {
    it('POST adds one (201) up to 12; a 13th → 409', async () => {
      const plan = await makePlan(server.api);
      const poll = await makePoll(plan);
      const seq = await lastSeq(server.api);
      const r = await server.api.post(`/plans/${plan}/polls/${poll.pollId}/options`, {
        date: '2026-07-04',
        time: '09:00',
      });
      expect(r.status).to.equal(201);
      await conforms(server, r, 'post', `${POLL}/options`);
      expect(r.body.optionId).to.match(/^option_/);
      expect(r.body.poll.options.at(-1)).to.include({
        optionId: r.body.optionId,
        label: null,
        date: '2026-07-04',
        time: '9:00 AM',
      });
      expect((await changesAfter(server.api, seq)).map((c) => c.type)).to.deep.equal([
        'plan.updated',
      ]);
      expect(
        (await server.api.post(`/plans/${plan}/polls/${poll.pollId}/options`, {})).status,
      ).to.equal(400);
      expect(
        (
          await server.api.post(`/plans/${plan}/polls/${poll.pollId}/options`, {
            label: 'x',
            endTime: '10:00',
          })
        ).status,
      ).to.equal(400);
      for (let i = 4; i < 12; i++)
        expect(
          (await server.api.post(`/plans/${plan}/polls/${poll.pollId}/options`, { label: `o${i}` }))
            .status,
        ).to.equal(201);
      const over = await server.api.post(`/plans/${plan}/polls/${poll.pollId}/options`, {
        label: 'thirteenth',
      });
      expect(over.status).to.equal(409);
      await conforms(server, over, 'post', `${POLL}/options`);
      expect((await pollOf(plan, poll.pollId)).options).to.have.length(12);
    });

    it('PATCH replaces an option: fields left out are cleared; its votes stay', async () => {
      const plan = await makePlan(server.api);
      const poll = await makePoll(plan);
      const opt = poll.options[1].optionId;
      await server.api.post(
        `/plans/${plan}/polls/${poll.pollId}/vote`,
        { optionId: opt },
        { key: ana.key },
      );
      const r = await server.api.patch(`/plans/${plan}/polls/${poll.pollId}/options/${opt}`, {
        date: '2026-06-21',
      });
      expect(r.status).to.equal(200);
      await conforms(server, r, 'patch', `${POLL}/options/{optionId}`);
      expect(r.body.poll.options[1]).to.deep.equal({
        optionId: opt,
        label: null,
        date: '2026-06-21',
        endDate: null,
        time: null,
        endTime: null,
        votes: 1,
      });
      const roundTrip = { ...r.body.poll.options[1], label: 'Sunday', time: '10:15 AM' };
      delete roundTrip.optionId;
      delete roundTrip.votes;
      const again = await server.api.patch(
        `/plans/${plan}/polls/${poll.pollId}/options/${opt}`,
        roundTrip,
      );
      expect(again.body.poll.options[1]).to.include({
        label: 'Sunday',
        time: '10:15 AM',
        endDate: null,
      });
      expect(
        (await server.api.patch(`/plans/${plan}/polls/${poll.pollId}/options/${opt}`, {})).status,
      ).to.equal(400);
      expect(
        (
          await server.api.patch(
            `/plans/${plan}/polls/${poll.pollId}/options/option_00000000000000000000`,
            { label: 'x' },
          )
        ).status,
      ).to.equal(404);
    });

    it('DELETE removes an option and its votes; a poll keeps two options (409)', async () => {
      const plan = await makePlan(server.api);
      const poll = await makePoll(plan);
      const [a, b, c] = poll.options.map((o) => o.optionId);
      await server.api.post(
        `/plans/${plan}/polls/${poll.pollId}/vote`,
        { optionId: c },
        { key: ana.key },
      );
      await server.api.post(
        `/plans/${plan}/polls/${poll.pollId}/vote`,
        { optionId: a },
        { key: bo.key },
      );
      const seq = await lastSeq(server.api);
      const r = await server.api.delete(`/plans/${plan}/polls/${poll.pollId}/options/${c}`);
      expect(r.status).to.equal(200);
      await conforms(server, r, 'delete', `${POLL}/options/{optionId}`);
      expect(r.body).to.include({ ok: true, optionId: c });
      expect((await changesAfter(server.api, seq)).map((x) => x.type)).to.deep.equal([
        'plan.updated',
      ]);
      const now = await pollOf(plan, poll.pollId, ana.key);
      expect(now.options.map((o: any) => [o.optionId, o.votes])).to.deep.equal([
        [a, 1],
        [b, 0],
      ]);
      expect(now.myVoteOptionId).to.equal(null);
      expect(now.voteCount).to.equal(1);
      expect(
        (await server.api.delete(`/plans/${plan}/polls/${poll.pollId}/options/${b}`)).status,
      ).to.equal(409);
      expect(
        (await server.api.delete(`/plans/${plan}/polls/${poll.pollId}/options/${c}`)).status,
      ).to.equal(404);
    });
  });

  describe('votes', () => {
    it("POST vote counts the key's person once; voting again moves the vote; each caller sees their own", async () => {
      const plan = await makePlan(server.api);
      const poll = await makePoll(plan);
      const [a, b] = poll.options.map((o) => o.optionId);
      const seq = await lastSeq(server.api);
      const r = await server.api.post(
        `/plans/${plan}/polls/${poll.pollId}/vote`,
        { optionId: a },
        { key: ana.key },
      );
      expect(r.status).to.equal(200);
      await conforms(server, r, 'post', `${POLL}/vote`);
      expect(r.body).to.include({ ok: true, pollId: poll.pollId, optionId: a });
      expect(r.body.poll.myVoteOptionId).to.equal(a);
      await server.api.post(
        `/plans/${plan}/polls/${poll.pollId}/vote`,
        { optionId: a },
        { key: bo.key },
      );
      await server.api.post(
        `/plans/${plan}/polls/${poll.pollId}/vote`,
        { optionId: b },
        { key: bo.key },
      );
      const again = await server.api.post(
        `/plans/${plan}/polls/${poll.pollId}/vote`,
        { optionId: b },
        { key: bo.key },
      );
      expect(again.status).to.equal(200);
      const byAna = await pollOf(plan, poll.pollId, ana.key);
      const byBo = await pollOf(plan, poll.pollId, bo.key);
      const byAdmin = await pollOf(plan, poll.pollId);
      expect(byAna.options.map((o: any) => o.votes)).to.deep.equal([1, 1, 0]);
      expect([byAna.myVoteOptionId, byBo.myVoteOptionId, byAdmin.myVoteOptionId]).to.deep.equal([
        a,
        b,
        null,
      ]);
      const log = await changesAfter(server.api, seq);
      expect(log.map((c) => c.type)).to.deep.equal([
        'plan.poll.vote.cast',
        'plan.poll.vote.cast',
        'plan.poll.vote.cast',
      ]);
      expect(log.map((c) => [c.actor.personId, c.object.myVoteOptionId])).to.deep.equal([
        [ana.personId, a],
        [bo.personId, a],
        [bo.personId, b],
      ]);
    });

    it('refuses a key without a person (403), an unknown option (404), a missing optionId (400)', async () => {
      const plan = await makePlan(server.api);
      const poll = await makePoll(plan);
      const r = await server.api.post(`/plans/${plan}/polls/${poll.pollId}/vote`, {
        optionId: poll.options[0].optionId,
      });
      expect(r.status).to.equal(403);
      await conforms(server, r, 'post', `${POLL}/vote`);
      expect((await server.api.delete(`/plans/${plan}/polls/${poll.pollId}/vote`)).status).to.equal(
        403,
      );
      expect(
        (
          await server.api.post(
            `/plans/${plan}/polls/${poll.pollId}/vote`,
            { optionId: 'option_00000000000000000000' },
            { key: ana.key },
          )
        ).status,
      ).to.equal(404);
      expect(
        (await server.api.post(`/plans/${plan}/polls/${poll.pollId}/vote`, {}, { key: ana.key }))
          .status,
      ).to.equal(400);
      const reader = await server.key({ personId: ana.personId, scopes: ['read'] });
      expect(
        (
          await server.api.post(
            `/plans/${plan}/polls/${poll.pollId}/vote`,
            { optionId: poll.options[0].optionId },
            { key: reader },
          )
        ).status,
      ).to.equal(403);
      expect((await pollOf(plan, poll.pollId)).voteCount).to.equal(0);
    });

    it("DELETE vote clears the caller's vote only", async () => {
      const plan = await makePlan(server.api);
      const poll = await makePoll(plan);
      const a = poll.options[0].optionId;
      await server.api.post(
        `/plans/${plan}/polls/${poll.pollId}/vote`,
        { optionId: a },
        { key: ana.key },
      );
      await server.api.post(
        `/plans/${plan}/polls/${poll.pollId}/vote`,
        { optionId: a },
        { key: bo.key },
      );
      const seq = await lastSeq(server.api);
      const r = await server.api.delete(`/plans/${plan}/polls/${poll.pollId}/vote`, {
        key: ana.key,
      });
      expect(r.status).to.equal(200);
      await conforms(server, r, 'delete', `${POLL}/vote`);
      expect(r.body).to.include({ ok: true, pollId: poll.pollId });
      expect(r.body.poll).to.include({ myVoteOptionId: null, voteCount: 1 });
      expect(r.body.poll.options[0].votes).to.equal(1);
      const log = await changesAfter(server.api, seq);
      expect(log.map((c) => [c.type, c.object.myVoteOptionId])).to.deep.equal([
        ['plan.poll.vote.cast', null],
      ]);
      expect(
        (await server.api.delete(`/plans/${plan}/polls/${poll.pollId}/vote`, { key: ana.key }))
          .status,
      ).to.equal(200);
    });
  });

  describe('settle and reopen', () => {
    it('settling a dated option writes a linked event to the calendar in one change', async () => {
      const plan = await makePlan(server.api, 'Tea party');
      const poll = await makePoll(plan);
      const opt = poll.options[1].optionId;
      const seq = await lastSeq(server.api);
      const r = await server.api.post(`/plans/${plan}/polls/${poll.pollId}/settle`, {
        optionId: opt,
      });
      expect(r.status).to.equal(200);
      await conforms(server, r, 'post', `${POLL}/settle`);
      expect(r.body).to.include({ ok: true, addedToCalendar: true });
      expect(r.body.eventId).to.match(/^ent_/);
      expect(r.body.poll).to.include({
        status: 'settled',
        settledOptionId: opt,
        settledEventId: r.body.eventId,
      });
      const log = await changesAfter(server.api, seq);
      expect(log.map((c) => c.type)).to.deep.equal([
        'calendar.event.created',
        'plan.event.linked',
        'plan.poll.settled',
      ]);
      expect(log[0].object).to.deep.include({
        id: r.body.eventId,
        title: 'Tea party',
        calendarKey: 'calendar',
      });
      expect(log[0].object.data).to.include({
        date: '2026-06-20',
        time: '15:30',
        endTime: '17:00',
        note: 'Saturday tea',
      });
      const events = (await server.api.get('/calendar/events?from=2026-06-20&to=2026-06-20')).body
        .events;
      expect(events.map((e: any) => e.id)).to.include(r.body.eventId);
      const detail = (await server.api.get(`/plans/${plan}`)).body;
      expect(detail.events.map((e: any) => e.eventId)).to.deep.equal([r.body.eventId]);
      expect(detail).to.include({ when: 'Sat, Jun 20, 2026', phase: 'upcoming' });
    });

    it('settling an undated option writes nothing to the calendar', async () => {
      const plan = await makePlan(server.api);
      const poll = await makePoll(plan);
      const seq = await lastSeq(server.api);
      const r = await server.api.post(`/plans/${plan}/polls/${poll.pollId}/settle`, {
        optionId: poll.options[2].optionId,
      });
      expect(r.status).to.equal(200);
      expect(r.body).to.include({ addedToCalendar: false, eventId: null });
      expect((await changesAfter(server.api, seq)).map((c) => c.type)).to.deep.equal([
        'plan.poll.settled',
      ]);
      expect((await server.api.get(`/plans/${plan}`)).body).to.include({
        when: 'Not scheduled',
        phase: 'unscheduled',
      });
    });

    it('a settled poll refuses question, option and vote changes and a second settle (409)', async () => {
      const plan = await makePlan(server.api);
      const poll = await makePoll(plan);
      const [a, b] = poll.options.map((o) => o.optionId);
      await server.api.post(
        `/plans/${plan}/polls/${poll.pollId}/vote`,
        { optionId: b },
        { key: ana.key },
      );
      await server.api.post(`/plans/${plan}/polls/${poll.pollId}/settle`, { optionId: a });
      const base = `/plans/${plan}/polls/${poll.pollId}`;
      const tries: [string, () => Promise<any>, string, string][] = [
        [
          'settle',
          () => server.api.post(`${base}/settle`, { optionId: b }),
          'post',
          `${POLL}/settle`,
        ],
        ['question', () => server.api.patch(base, { question: 'New?' }), 'patch', POLL],
        [
          'add option',
          () => server.api.post(`${base}/options`, { label: 'x' }),
          'post',
          `${POLL}/options`,
        ],
        [
          'replace option',
          () => server.api.patch(`${base}/options/${b}`, { label: 'x' }),
          'patch',
          `${POLL}/options/{optionId}`,
        ],
        [
          'delete option',
          () => server.api.delete(`${base}/options/${b}`),
          'delete',
          `${POLL}/options/{optionId}`,
        ],
        [
          'vote',
          () => server.api.post(`${base}/vote`, { optionId: a }, { key: ana.key }),
          'post',
          `${POLL}/vote`,
        ],
        [
          'clear vote',
          () => server.api.delete(`${base}/vote`, { key: ana.key }),
          'delete',
          `${POLL}/vote`,
        ],
      ];
      const seq = await lastSeq(server.api);
      for (const [name, call, method, path] of tries) {
        const r = await call();
        expect(r.status, name).to.equal(409);
        expect(r.body.code).to.equal('conflict');
        await conforms(server, r, method, path);
      }
      expect(await changesAfter(server.api, seq)).to.deep.equal([]);
      const still = await pollOf(plan, poll.pollId, ana.key);
      expect(still).to.include({ status: 'settled', settledOptionId: a, myVoteOptionId: b });
    });

    it('reopening removes the event settling made and keeps votes; reopening an open poll → 409', async () => {
      const plan = await makePlan(server.api);
      const other = await makePlan(server.api, 'Other plan');
      const poll = await makePoll(plan);
      const a = poll.options[0].optionId;
      const open = await server.api.post(`/plans/${plan}/polls/${poll.pollId}/reopen`);
      expect(open.status).to.equal(409);
      await conforms(server, open, 'post', `${POLL}/reopen`);
      await server.api.post(
        `/plans/${plan}/polls/${poll.pollId}/vote`,
        { optionId: a },
        { key: bo.key },
      );
      const settled = (
        await server.api.post(`/plans/${plan}/polls/${poll.pollId}/settle`, { optionId: a })
      ).body;
      await server.api.post(`/plans/${other}/events`, { eventId: settled.eventId });
      const seq = await lastSeq(server.api);
      const r = await server.api.post(`/plans/${plan}/polls/${poll.pollId}/reopen`);
      expect(r.status).to.equal(200);
      await conforms(server, r, 'post', `${POLL}/reopen`);
      expect(r.body).to.include({
        ok: true,
        removedFromCalendar: true,
        removedEventId: settled.eventId,
      });
      const log = await changesAfter(server.api, seq);
      expect(log.map((c) => c.type)).to.deep.equal([
        'calendar.event.deleted',
        'plan.event.unlinked',
        'plan.event.unlinked',
        'plan.poll.reopened',
      ]);
      const events = (await server.api.get('/calendar/events?from=2026-06-13&to=2026-06-15')).body
        .events;
      expect(events.map((e: any) => e.id)).to.not.include(settled.eventId);
      expect((await server.api.get(`/plans/${plan}`)).body).to.deep.include({
        events: [],
        when: 'Not scheduled',
      });
      expect((await server.api.get(`/plans/${other}`)).body.events).to.deep.equal([]);
      const now = await pollOf(plan, poll.pollId, bo.key);
      expect(now).to.include({ status: 'open', settledOptionId: null, myVoteOptionId: a });
      expect(now.options[0].votes).to.equal(1);
      expect(
        (
          await server.api.post(
            `/plans/${plan}/polls/${poll.pollId}/vote`,
            { optionId: poll.options[1].optionId },
            { key: bo.key },
          )
        ).status,
      ).to.equal(200);
    });

    it('reopening after the event was deleted elsewhere removes nothing', async () => {
      const plan = await makePlan(server.api);
      const poll = await makePoll(plan);
      const settled = (
        await server.api.post(`/plans/${plan}/polls/${poll.pollId}/settle`, {
          optionId: poll.options[0].optionId,
        })
      ).body;
      await server.api.delete(`/calendar/events/${settled.eventId}`);
      // The settled dated option still dates the plan without its event; reopening undates it.
      const dated = (await server.api.get(`/plans/${plan}`)).body;
      expect(dated).to.include({ phase: 'upcoming' });
      expect(dated.events).to.deep.equal([]);
      expect(dated.when).to.equal('Jun 13 – 15, 2026');
      const seq = await lastSeq(server.api);
      const r = await server.api.post(`/plans/${plan}/polls/${poll.pollId}/reopen`);
      expect(r.body).to.include({ ok: true, removedFromCalendar: false, removedEventId: null });
      expect((await changesAfter(server.api, seq)).map((c) => c.type)).to.deep.equal([
        'plan.poll.reopened',
      ]);
      expect((await server.api.get(`/plans/${plan}`)).body).to.include({
        phase: 'unscheduled',
        when: 'Not scheduled',
      });
    });

    it('settle answers 404 for an unknown option or poll and 400 without optionId', async () => {
      const plan = await makePlan(server.api);
      const poll = await makePoll(plan);
      expect(
        (
          await server.api.post(`/plans/${plan}/polls/${poll.pollId}/settle`, {
            optionId: 'option_00000000000000000000',
          })
        ).status,
      ).to.equal(404);
      expect(
        (
          await server.api.post(`/plans/${plan}/polls/poll_00000000000000000000/settle`, {
            optionId: poll.options[0].optionId,
          })
        ).status,
      ).to.equal(404);
      expect(
        (await server.api.post(`/plans/${plan}/polls/${poll.pollId}/settle`, {})).status,
      ).to.equal(400);
      expect(
        (await server.api.post(`/plans/${plan}/polls/poll_00000000000000000000/reopen`)).status,
      ).to.equal(404);
    });
  });
});
