/** Reading a family's change log through `GET /changes`, as the e2e suites check it. */
import type { Client } from './server.js';

/** The newest sequence number in the family's change log (0 when empty). */
export async function lastSeq(api: Client): Promise<number> {
  let after = 0;
  for (;;) {
    const r = (await api.get(`/changes?after=${after}&limit=500`)).body;
    if (r.nextAfter === after) return after;
    after = r.nextAfter;
  }
}

/** Every change-log record after `seq`, in order, following `nextAfter` to the end. */
export async function changesAfter(api: Client, seq: number): Promise<any[]> {
  const out: any[] = [];
  let after = seq;
  for (;;) {
    const r = (await api.get(`/changes?after=${after}&limit=500`)).body;
    out.push(...r.changes);
    if (r.nextAfter === after) return out;
    after = r.nextAfter;
  }
}
