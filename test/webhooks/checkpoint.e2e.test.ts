/**
 * The outbox checkpoint through the real server: first attempts go out without a job, and the
 * durable checkpoint moves past a change only once each of its deliveries has settled. A
 * receiver that holds its answer keeps the checkpoint before that change (the other destination's
 * answer is recorded meanwhile); a stop while it is held — the daemon gone mid-window, its send
 * cancelled unrecorded — leaves the change owed, and the restart sends it again with the same
 * webhook-id, and nothing that had settled before.
 */
import { expect } from 'chai';
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startLocalService, type LocalService } from '../integrations/localService.js';
import { changesAfter } from '../helpers/changes.js';
import {
  DELIVER_KIND,
  OUTBOX,
  OUTBOX_ID,
  type OutboxCheckpoint,
} from '../../src/domain/webhooks/types.js';

describe('the webhook outbox checkpoint', function () {
  this.timeout(20_000);
  let server: TestServer | undefined;
  let receiver: LocalService;
  /** Answers of /slow held back while `hold` is set. */
  let hold = false;
  const held: ServerResponse[] = [];
  const got: { path: string; id: string }[] = [];

  before(async () => {
    receiver = await startLocalService((req, res) => {
      got.push({ path: req.url ?? '', id: String(req.headers['webhook-id']) });
      if (req.url === '/slow' && hold) {
        held.push(res);
        return;
      }
      res.writeHead(204);
      res.end();
    });
  });
  after(async () => {
    await server?.close();
    await receiver.close();
  });

  const familyId = () => server!.daemon.store.getFamilyBySlug('home')!.id;
  const checkpoint = () =>
    server!.daemon.store.getRecord<OutboxCheckpoint>(familyId(), OUTBOX, OUTBOX_ID)?.seq ?? 0;
  const history = async (id: string) =>
    (await server!.api.get('/webhook-destinations')).body.destinations.find((d: any) => d.id === id)
      .history;
  async function until(
    what: string,
    ok: () => boolean | Promise<boolean>,
    ms = 5_000,
  ): Promise<void> {
    const end = Date.now() + ms;
    while (!(await ok())) {
      if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
      await sleep(20);
    }
  }
  async function person(name: string): Promise<{ seq: number; id: string }> {
    const r = await server!.api.post('/people', { name });
    expect(r.status, r.text).to.equal(201);
    const c = (await changesAfter(server!.api, 0))
      .filter((x: any) => x.type === 'person.created')
      .at(-1);
    return { seq: c.seq, id: c.id };
  }

  it('moves only past changes whose deliveries all settled, and a restart re-sends the unsettled ones only', async () => {
    server = await startTestServer();
    const make = async (name: string, path: string) => {
      const r = await server!.api.post('/webhook-destinations', {
        name,
        url: `${receiver.origin}${path}`,
        eventTypes: ['person.created'],
      });
      expect(r.status, r.text).to.equal(201);
      return r.body.destination.id as string;
    };
    const fast = await make('fast', '/fast');
    const slow = await make('slow', '/slow');

    // Both answer: the checkpoint moves past the change, with no job put on the way.
    const a = await person('A');
    await server.daemon.webhooks.idle();
    expect(
      got
        .filter((g) => g.id === a.id)
        .map((g) => g.path)
        .sort(),
    ).to.deep.equal(['/fast', '/slow']);
    expect(checkpoint()).to.be.at.least(a.seq);
    expect(
      server.daemon.store.familyJobs(familyId()).filter((j) => j.kind === DELIVER_KIND),
    ).to.deep.equal([]);

    // /slow holds its answer: /fast's is recorded, the checkpoint stays before the change.
    hold = true;
    const b = await person('B');
    await until('both have B', () => got.filter((g) => g.id === b.id).length === 2);
    await until('fast recorded B', async () => (await history(fast))[0]?.eventId === b.id);
    await sleep(200); // several recording windows
    expect(checkpoint()).to.equal(b.seq - 1);
    expect((await history(slow))[0].eventId).to.equal(a.id);
    // Released, it settles and the checkpoint passes it.
    hold = false;
    for (const res of held.splice(0)) {
      res.writeHead(204);
      res.end();
    }
    await until('slow recorded B', async () => (await history(slow))[0]?.eventId === b.id);
    await until('the checkpoint passed B', () => checkpoint() >= b.seq);

    // Held again, then the daemon stops: the send is cancelled unrecorded, so C is still owed.
    hold = true;
    const c = await person('C');
    await until('both have C', () => got.filter((g) => g.id === c.id).length === 2);
    await until('fast recorded C', async () => (await history(fast))[0]?.eventId === c.id);
    const dataDir = server.dataDir;
    await server.close({ keepData: true });
    hold = false;
    for (const res of held.splice(0)) res.destroy();
    const before = got.length;
    server = await startTestServer({ dataDir });
    expect(checkpoint()).to.equal(c.seq - 1);
    await until('slow has C again', () =>
      got.slice(before).some((g) => g.path === '/slow' && g.id === c.id),
    );
    await server.daemon.webhooks.idle();
    await until('the checkpoint passed C', () => checkpoint() >= c.seq);
    // At least once: C again, with the same webhook-id, to each destination (fast had it, but its
    // answer settled nothing while /slow's was owed); nothing that had settled comes back.
    expect(
      got
        .slice(before)
        .map((g) => `${g.path} ${g.id}`)
        .sort(),
    ).to.deep.equal([`/fast ${c.id}`, `/slow ${c.id}`]);
    expect((await history(slow)).map((h: any) => [h.eventId, h.status]).slice(0, 2)).to.deep.equal([
      [c.id, 'succeeded'],
      [b.id, 'succeeded'],
    ]);
  });
});
