/** Shared steps of the plans e2e suites: the change log, events and plans through the API. */
import { expect } from 'chai';
import type { Client, TestServer } from './server.js';

export const PLANS = '/api/v1/families/{familySlug}/plans';
export const PLAN = `${PLANS}/{planId}`;
export const POLL = `${PLAN}/polls/{pollId}`;

export { lastSeq, changesAfter } from '../helpers/changes.js';

export async function makeEvent(api: Client, body: Record<string, unknown>): Promise<string> {
  const r = await api.post('/calendar/events', body);
  expect(r.status, JSON.stringify(r.body)).to.equal(201);
  return r.body.entryId;
}

export async function makePlan(
  api: Client,
  title = 'Lake weekend',
  prose?: string,
): Promise<string> {
  const r = await api.post('/plans', { title, ...(prose !== undefined ? { prose } : {}) });
  expect(r.status, JSON.stringify(r.body)).to.equal(201);
  return r.body.planId;
}

/** A key acting for a new person of the family. */
export async function voterKey(
  server: TestServer,
  name: string,
): Promise<{ key: string; personId: string }> {
  const p = await server.api.post('/people', { name });
  expect(p.status).to.equal(201);
  const key = await server.key({
    personId: p.body.person.id,
    scopes: ['write'],
    name: `${name}'s phone`,
  });
  return { key, personId: p.body.person.id };
}

/** The path of a share URL (the test server's publicUrl is not where it listens). */
export function sharePath(shareUrl: string): string {
  return new URL(shareUrl).pathname;
}
