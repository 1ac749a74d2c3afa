/**
 * The delivery thread through the real server: attempts are signed and sent from a worker
 * thread (src/webhooks/sendThread.ts). A thread that dies with sends in flight is started again
 * and those deliveries go again — every event arrives, each is recorded once as succeeded, the
 * checkpoint moves past them, and no retry job is left. The egress guard applies in the thread:
 * a resolver the daemon was given is still the one that resolves a receiver's host name, and
 * the policy still refuses the loopback address it answers (nothing connects anywhere but
 * 127.0.0.1).
 */
import { expect } from 'chai';
import type { ServerResponse } from 'node:http';
import { lookup as dnsLookup } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { until } from '../helpers/until.js';
import { changesAfter, lastSeq } from '../helpers/changes.js';
import { startLocalService, type LocalService } from '../integrations/localService.js';
import { startReceiver, type Receiver } from '../helpers/fakes/receiver.js';
import { createEgress } from '../../src/integrations/egress.js';
import {
  DELIVER_KIND,
  OUTBOX,
  OUTBOX_ID,
  type OutboxCheckpoint,
} from '../../src/domain/webhooks/types.js';

const path = '/webhook-destinations';

describe('the webhook delivery thread', function () {
  this.timeout(30_000);
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const destinations = async () => (await server!.api.get(path)).body.destinations as any[];

  describe('when it dies with sends in flight', () => {
    let receiver: LocalService;
    let hold = true;
    const held: ServerResponse[] = [];
    const got: { id: string; answered: number }[] = [];
    before(async () => {
      receiver = await startLocalService((req, res) => {
        if (hold) {
          held.push(res);
          return;
        }
        got.push({ id: String(req.headers['webhook-id']), answered: 204 });
        res.writeHead(204);
        res.end();
      });
    });
    after(() => receiver.close());

    it('is started again, and the deliveries it held go again until each is recorded once', async () => {
      server = await startTestServer();
      const thread = server.daemon.webhooks.sendThread;
      expect(thread, 'the daemon sends from a thread').to.not.equal(null);
      const r = await server.api.post(path, {
        name: 'held',
        url: `${receiver.origin}/hook`,
        eventTypes: ['person.created'],
      });
      expect(r.status, r.text).to.equal(201);
      const names = ['A', 'B', 'C', 'D', 'E'];
      for (const name of names)
        expect((await server.api.post('/people', { name })).status).to.equal(201);
      await until('the five sends to be in flight', () => held.length === names.length);

      const first = thread!.threadId;
      await thread!.kill();
      await until('a new delivery thread', () => {
        const id = thread!.threadId;
        return id !== null && id !== first;
      });
      hold = false;
      await server.daemon.webhooks.idle();

      const events = (await changesAfter(server.api, 0))
        .filter((c: any) => c.type === 'person.created')
        .map((c: any) => c.id as string);
      expect(events).to.have.length(names.length);
      // Each arrived (after the restart: the held sockets died with the thread).
      expect(new Set(got.map((g) => g.id))).to.deep.equal(new Set(events));
      const [d] = await destinations();
      const history = d.history as { eventId: string; status: string }[];
      expect(history.map((h) => h.status)).to.deep.equal(names.map(() => 'succeeded'));
      expect(new Set(history.map((h) => h.eventId))).to.deep.equal(new Set(events));
      const familyId = server.daemon.store.getFamilyBySlug('home')!.id;
      expect(
        server.daemon.store.getRecord<OutboxCheckpoint>(familyId, OUTBOX, OUTBOX_ID)?.seq,
      ).to.equal(await lastSeq(server.api));
      expect(
        server.daemon.store.familyJobs(familyId).filter((j) => j.kind === DELIVER_KIND),
      ).to.deep.equal([]);
      for (const res of held) res.destroy();
    });
  });

  describe('the egress guard in the thread', () => {
    let receiver: Receiver;
    const asked: string[] = [];
    /** The daemon's resolver: `receiver.test` is 127.0.0.1; anything else fails. */
    const lookup: LookupFunction = (hostname, options, callback) => {
      asked.push(hostname);
      if (hostname === 'receiver.test') dnsLookup('127.0.0.1', options, callback);
      else
        callback(Object.assign(new Error(`no such host ${hostname}`), { code: 'ENOTFOUND' }), '');
    };
    before(async () => {
      receiver = await startReceiver();
    });
    after(() => receiver.close());

    async function deliverOne(policy: 'any' | 'lan'): Promise<any> {
      server = await startTestServer({
        egress: createEgress({ lookup }),
        overrides: { egress: { webhooks: policy } },
      });
      expect(server.daemon.webhooks.sendThread).to.not.equal(null);
      const r = await server.api.post(path, {
        name: 'by name',
        url: `http://receiver.test:${receiver.port}/hook`,
        eventTypes: ['person.created'],
      });
      expect(r.status, r.text).to.equal(201);
      expect((await server.api.post('/people', { name: 'Ana' })).status).to.equal(201);
      await server.daemon.webhooks.idle();
      return (await destinations())[0].history[0];
    }

    it('resolves a receiver through the resolver the daemon was given', async () => {
      asked.length = 0;
      const h = await deliverOne('any');
      expect(h).to.include({ status: 'succeeded', responseStatus: 200 });
      expect(asked).to.include('receiver.test');
      expect(receiver.deliveries.map((d) => d.json.type)).to.deep.equal(['person.created']);
    });

    it('refuses the loopback address it answers under the lan policy: no connection is made', async () => {
      asked.length = 0;
      const before = receiver.connections;
      const h = await deliverOne('lan');
      expect(h).to.include({ status: 'retrying', responseStatus: null });
      expect(h.error).to.match(/^refused_address: .*127\.0\.0\.1.*"lan" policy/);
      expect(asked).to.include('receiver.test');
      expect(receiver.connections).to.equal(before);
    });
  });
});
