/**
 * Webhooks leave through the egress guard under the `webhooks` policy: under the default `lan`
 * a receiver written as a loopback address is refused when it is added (400 at `url`, as a
 * calendar feed's is); one added while the policy allowed it (the policy tightened
 * since) is refused at connect time, the attempt recorded with a clear error, and the receiver
 * never sees a connection. (Other address classes are proven on the classifier and the resolver
 * hook in test/integrations; nothing here connects anywhere but 127.0.0.1.)
 */
import { expect } from 'chai';
import { startTestServer, tempDataDir, type TestServer } from '../helpers/server.js';
import { startReceiver, type Receiver } from '../helpers/fakes/receiver.js';

describe('webhook deliveries under the lan egress policy', () => {
  let server: TestServer;
  let receiver: Receiver;
  const dataDir = tempDataDir();
  before(async () => {
    receiver = await startReceiver();
    // Added while the policy let loopback through, then the server restarts under `lan`.
    const open = await startTestServer({ dataDir, overrides: { egress: { webhooks: 'any' } } });
    const created = await open.api.post('/webhook-destinations', {
      name: 'loopback',
      url: receiver.url,
      eventTypes: ['person.created'],
    });
    expect(created.status).to.equal(201);
    await open.close({ keepData: true });
    server = await startTestServer({ dataDir, overrides: { egress: { webhooks: 'lan' } } });
  });
  after(async () => {
    await receiver.close();
    await server.close();
  });

  it('refuses a loopback receiver when it is added: 400 at url, naming the setting', async () => {
    const refused = await server.api.post('/webhook-destinations', {
      name: 'loopback again',
      url: receiver.url,
      eventTypes: ['person.created'],
    });
    expect(refused.status).to.equal(400);
    expect(JSON.stringify(refused.body)).to.match(/"url"/);
    expect(refused.body.error).to.match(/loopback address.*egress\.webhooks.*any/);
    expect((await server.api.get('/webhook-destinations')).body.destinations).to.have.length(1);
  });

  it('refuses a destination on 127.0.0.1 at delivery: the attempt fails with the reason in history and the receiver sees no connection', async () => {
    const [destination] = (await server.api.get('/webhook-destinations')).body.destinations;
    await server.api.post('/people', { name: 'Ana' });
    await server.daemon.webhooks.idle();
    const test = await server.api.post(`/webhook-destinations/${destination.id}/test`);
    expect(test.body.delivery).to.include({ status: 'failed', responseStatus: null });
    expect(test.body.delivery.error).to.match(/^refused_address: .*"lan" policy/);
    const d = (await server.api.get('/webhook-destinations')).body.destinations[0];
    expect(d.history.map((h: any) => [h.type, h.status, h.responseStatus])).to.deep.equal([
      ['webhook.test', 'failed', null],
      ['person.created', 'retrying', null],
    ]);
    expect(d.history[1].error).to.match(/^refused_address: .*127\.0\.0\.1.*"lan" policy/);
    expect(receiver.connections).to.equal(0);
    expect(receiver.deliveries).to.deep.equal([]);
  });
});
