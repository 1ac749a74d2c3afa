/**
 * The records of the plans area on a field table besides notes, as
 * test/http/recordTables.e2e.test.ts holds them to it: a plan, a poll (stored in its plan's
 * `polls`) and a poll option (in its poll's `options`).
 */
import { expect } from 'chai';
import type { Client } from './server.js';
import type { RecordCase } from './recordTables.js';
import { OPTION_FIELDS, PLAN_FIELDS, POLL_FIELDS } from '../../src/domain/plans/types.js';
import { OPTION_DERIVED, PLAN_DERIVED, POLL_DERIVED } from '../../src/domain/plans/views.js';

type Poll = { pollId: string; options: { optionId: string }[] };

/** Every poll of the family's plans, as each plan's answer shows it. */
async function polls(client: Client): Promise<Poll[]> {
  const out: Poll[] = [];
  for (const { planId } of (await client.get('/plans')).body.plans) {
    const plan = await client.get(`/plans/${planId}`);
    expect(plan.status, plan.text).to.equal(200);
    out.push(...(plan.body.polls as Poll[]));
  }
  return out;
}

/** A plan with a poll whose first option has every field set; the poll's view. */
async function pollMade(client: Client): Promise<Record<string, unknown> & Poll> {
  const plan = await client.post('/plans', { title: 'Cousins' });
  expect(plan.status, plan.text).to.equal(201);
  const r = await client.post(`/plans/${plan.body.planId}/polls`, {
    question: ' Which weekend? ',
    options: [
      {
        label: ' Early ',
        date: '2030-06-13',
        endDate: '2030-06-15',
        time: '3:30 PM',
        endTime: '18:00',
      },
      { label: 'Late', date: null },
    ],
  });
  expect(r.status, r.text).to.equal(201);
  expect(r.body.poll).to.include({ question: 'Which weekend?', status: 'open', voteCount: 0 });
  return r.body.poll;
}

export const PLAN_CASES: RecordCase[] = [
  {
    name: 'plan',
    storeTable: 'plans',
    schemas: { view: 'Plan', create: 'CreatePlanBody', update: 'UpdatePlanBody' },
    table: PLAN_FIELDS,
    derived: PLAN_DERIVED,
    idKey: 'planId',
    async create(client) {
      const r = await client.post('/plans', { title: ' Lake weekend ', prose: '  ' });
      expect(r.status, r.text).to.equal(201);
      expect(r.body.plan).to.include({ title: 'Lake weekend', prose: null, archived: false });
      return r.body.plan;
    },
    async read(client, id) {
      const r = await client.get(`/plans/${id}`);
      expect(r.status, r.text).to.equal(200);
      const { ok: _ok, ...plan } = r.body;
      return plan;
    },
  },
  {
    name: 'poll',
    storeTable: 'plans',
    within: 'polls',
    schemas: { view: 'Poll', create: 'CreatePollBody', update: 'UpdatePollBody' },
    patchRequired: ['question'],
    table: POLL_FIELDS,
    derived: POLL_DERIVED,
    idKey: 'pollId',
    create: pollMade,
    async read(client, id) {
      return (await polls(client)).find((p) => p.pollId === id)!;
    },
  },
  {
    name: 'poll option',
    storeTable: 'plans',
    within: 'polls.options',
    schemas: { view: 'PollOption', create: 'PollOptionBody' },
    table: OPTION_FIELDS,
    derived: OPTION_DERIVED,
    idKey: 'optionId',
    async create(client) {
      const [option] = (await pollMade(client)).options;
      expect(option).to.include({ label: 'Early', time: '3:30 PM', endTime: '6:00 PM', votes: 0 });
      return option;
    },
    async read(client, id) {
      for (const poll of await polls(client)) {
        const found = poll.options.find((o) => o.optionId === id);
        if (found) return found;
      }
      throw new Error(`no option ${id}`);
    },
  },
];
