/**
 * Webhooks leave through the egress guard under the `webhooks` policy: under the default `lan`
 * a destination on loopback is refused at connect time, the attempt is recorded with a clear
 * error and the receiver never sees a connection. (Other address classes are proven on the
 * classifier and the resolver hook in test/integrations; nothing here connects anywhere but
 * 127.0.0.1.)
 */
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { startReceiver, type Receiver } from '../helpers/fakes/receiver.js';

describe('webhook deliveries under the lan egress policy', () => {
  let server: TestServer;
  let receiver: Receiver;
  before(async () => {
    server = await startTestServer({ overrides: { egress: { webhooks: 'lan' } } });
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver.close();
    await server.close();
  });

  it('refuses a destination on 127.0.0.1: the attempt fails with the reason in history and the receiver sees no connection', async () => {
    const created = await server.api.post('/webhook-destinations', {
      name: 'loopback',
      url: receiver.url,
      eventTypes: ['person.created'],
    });
    expect(created.status).to.equal(201);
    await server.api.post('/people', { name: 'Ana' });
    await server.daemon.webhooks.idle();
    const test = await server.api.post(`/webhook-destinations/${created.body.destination.id}/test`);
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
