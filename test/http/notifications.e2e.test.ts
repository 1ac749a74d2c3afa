/**
 * POST and GET /notifications through the real server, with real local stand-ins for the
 * transports: an SMTP server (smtp-server), an ntfy recorder and an SMS gateway recorder.
 */
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { FakeClock } from '../helpers/clock.js';
import { conforms } from '../helpers/contract.js';
import * as changes from '../helpers/changes.js';
import { startSmtp, type SmtpFake } from '../helpers/fakes/smtp.js';
import { startNtfy, type NtfyRecorder } from '../helpers/fakes/ntfy.js';
import { startSmsGateway, type SmsGateway } from '../helpers/fakes/sms.js';

const NOTIFICATIONS = '/api/v1/families/{familySlug}/notifications';

describe('POST /notifications', () => {
  let server: TestServer;
  let smtp: SmtpFake;
  let ntfy: NtfyRecorder;
  let sms: SmsGateway;
  before(async () => {
    [smtp, ntfy, sms] = await Promise.all([startSmtp(), startNtfy(), startSmsGateway()]);
    server = await startTestServer({
      overrides: {
        email: { smtpUrl: smtp.url, from: 'Household <house@example.test>' },
        push: { ntfyUrl: ntfy.url },
        sms: { gatewayUrl: sms.url },
      },
    });
    await server.api.post('/people', {
      name: 'Ana Lima',
      email: 'ana@example.test',
      phone: '+49 30 1234567',
    });
    await server.api.post('/people', { name: 'Ben Lima', email: 'ben@example.test' });
    await server.api.post('/people', { name: 'Cleo' });
  });
  after(async () => {
    await server.close();
    await Promise.all([smtp.close(), ntfy.close(), sms.close()]);
  });
  beforeEach(() => {
    smtp.messages.length = 0;
    ntfy.published.length = 0;
    sms.sent.length = 0;
    ntfy.status = 200;
    sms.status = 202;
    smtp.rejectRecipients.clear();
  });

  it('sends in_app only by default, answers 201 with the counts and records the notification', async () => {
    const r = await server.api.post('/notifications', { title: 'Dinner is ready' });
    expect(r.status).to.equal(201);
    expect(r.body).to.include({ ok: true, delivered: 1, suppressed: 0 });
    expect(r.body.notification).to.include({ kind: 'manual', title: 'Dinner is ready', body: '' });
    expect(r.body.notification.deliveries).to.deep.equal([
      { channel: 'in_app', status: 'delivered' },
    ]);
    expect(ntfy.published).to.have.length(0);
    expect(smtp.messages).to.have.length(0);
    await conforms(server, r, 'post', NOTIFICATIONS);
  });

  it('emails every person with an address (one message each, from email.from, subject = title), publishes once to ntfy and texts people with a phone', async () => {
    const seq = await changes.lastSeq(server.api);
    const r = await server.api.post('/notifications', {
      title: 'Bins go out tonight',
      body: 'Blue and black ones',
      channels: ['in_app', 'email', 'push', 'sms'],
    });
    expect(r.status).to.equal(201);
    expect(r.body).to.include({ delivered: 5, suppressed: 0 });
    const byChannel = (c: string) =>
      r.body.notification.deliveries.filter((d: any) => d.channel === c);
    expect(byChannel('email').map((d: any) => [d.recipient, d.status])).to.deep.equal([
      ['ana@example.test', 'delivered'],
      ['ben@example.test', 'delivered'],
    ]);
    expect(byChannel('sms').map((d: any) => [d.recipient, d.status])).to.deep.equal([
      ['+49 30 1234567', 'delivered'],
    ]);
    expect(smtp.messages.map((m) => [m.to, m.from, m.subject, m.text])).to.have.deep.members([
      [['ana@example.test'], 'house@example.test', 'Bins go out tonight', 'Blue and black ones'],
      [['ben@example.test'], 'house@example.test', 'Bins go out tonight', 'Blue and black ones'],
    ]);
    expect(ntfy.published.map((p) => [p.topic, p.title, p.message])).to.deep.equal([
      ['household', 'Bins go out tonight', 'Blue and black ones'],
    ]);
    expect(sms.sent).to.deep.equal([
      { to: '+49 30 1234567', message: 'Bins go out tonight\nBlue and black ones' },
    ]);
    // One notification.sent, carrying the settled deliveries.
    const logged = (await changes.changesAfter(server.api, seq)).filter(
      (c) => c.type === 'notification.sent',
    );
    expect(logged).to.have.length(1);
    expect(logged[0].object.id).to.equal(r.body.notification.id);
    expect(logged[0].object.delivered).to.equal(5);
  });

  it('sends a title in any script to ntfy as RFC 2047 encoded-words, and to SMTP as a proper subject', async () => {
    const title = 'Müll raus – 🗑️ ゴミの日 '.repeat(3).trim();
    const r = await server.api.post('/notifications', {
      title,
      body: 'Grüße',
      channels: ['push', 'email'],
    });
    expect(r.body).to.include({ delivered: 3, suppressed: 0 });
    expect(ntfy.published[0].rawTitle).to.match(/^=\?UTF-8\?B\?/);
    for (const word of ntfy.published[0].rawTitle!.split(' '))
      expect(word.length).to.be.at.most(75);
    expect(ntfy.published[0].title).to.equal(title);
    expect(ntfy.published[0].message).to.equal('Grüße');
    expect(smtp.messages.map((m) => m.subject)).to.deep.equal([title, title]);
  });

  it('counts a failed send as suppressed with the reason on the record, and the others as delivered', async () => {
    ntfy.status = 500;
    smtp.rejectRecipients.add('ben@example.test');
    sms.status = 503;
    const r = await server.api.post('/notifications', {
      title: 'Storm warning',
      channels: ['in_app', 'email', 'push', 'sms'],
    });
    expect(r.status).to.equal(201);
    expect(r.body).to.include({ delivered: 2, suppressed: 3 });
    const reasons = Object.fromEntries(
      r.body.notification.deliveries
        .filter((d: any) => d.status === 'suppressed')
        .map((d: any) => [`${d.channel}${d.recipient ? `:${d.recipient}` : ''}`, d.reason]),
    );
    expect(reasons['push']).to.equal('failed: ntfy answered 500');
    expect(reasons['sms:+49 30 1234567']).to.equal('failed: the SMS gateway answered 503');
    expect(reasons['email:ben@example.test']).to.match(/^failed: .*550/);
    expect(smtp.messages.map((m) => m.to)).to.deep.equal([['ana@example.test']]);
    const listed = (await server.api.get('/notifications?limit=1')).body.notifications[0];
    expect(listed.id).to.equal(r.body.notification.id);
    expect(listed.deliveries).to.deep.equal(r.body.notification.deliveries);
  });

  it('answers a replay of the same Idempotency-Key with the settled answer, sending nothing again', async () => {
    const headers = { 'Idempotency-Key': 'dinner-1' };
    const first = await server.api.post(
      '/notifications',
      { title: 'Once', channels: ['push'] },
      { headers },
    );
    const again = await server.api.post(
      '/notifications',
      { title: 'Once', channels: ['push'] },
      { headers },
    );
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.body).to.deep.equal(first.body);
    expect(first.body).to.include({ delivered: 1, suppressed: 0 });
    expect(ntfy.published).to.have.length(1);
  });

  it('refuses a missing or blank title, an unknown channel, an empty channel list and unknown fields, naming the field', async () => {
    const cases: [unknown, (string | number)[]][] = [
      [{}, ['title']],
      [{ title: '   ' }, ['title']],
      [{ title: 'x', channels: ['pigeon'] }, ['channels', 0]],
      [{ title: 'x', channels: [] }, ['channels']],
      [{ title: 'x', colour: 'red' }, ['colour']],
      [{ title: 'x'.repeat(201) }, ['title']],
      [{ title: 'x', body: 'y'.repeat(4001) }, ['body']],
    ];
    const seq = await changes.lastSeq(server.api);
    for (const [body, path] of cases) {
      const r = await server.api.post('/notifications', body);
      expect(r.status, JSON.stringify(body)).to.equal(400);
      expect(r.body.code).to.equal('invalid_request');
      expect(r.body.issues[0].path, JSON.stringify(body)).to.deep.equal(path);
    }
    expect(
      (await server.api.post('/notifications', { title: 'x'.repeat(200), body: 'y'.repeat(4000) }))
        .status,
    ).to.equal(201);
    expect(await changes.lastSeq(server.api)).to.equal(seq + 1);
  });

  it('needs the write scope', async () => {
    const read = await server.key({ scopes: ['read'] });
    const r = await server.api.post('/notifications', { title: 'x' }, { key: read });
    expect(r.status).to.equal(403);
    expect((await server.api.get('/notifications', { key: read })).status).to.equal(200);
  });
});

describe('POST /notifications without transports', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server?.close());

  it('suppresses channels that are not configured, each with its reason, never dropping them silently', async () => {
    const r = await server.api.post('/notifications', {
      title: 'Hello',
      channels: ['in_app', 'email', 'push', 'sms'],
    });
    expect(r.body).to.include({ delivered: 1, suppressed: 3 });
    expect(r.body.notification.deliveries).to.deep.equal([
      { channel: 'in_app', status: 'delivered' },
      { channel: 'email', status: 'suppressed', reason: 'not configured' },
      { channel: 'push', status: 'suppressed', reason: 'not configured' },
      { channel: 'sms', status: 'suppressed', reason: 'not configured' },
    ]);
  });
});

describe('POST /notifications to a household without addresses', () => {
  let server: TestServer;
  let smtp: SmtpFake;
  let sms: SmsGateway;
  before(async () => {
    [smtp, sms] = await Promise.all([startSmtp(), startSmsGateway()]);
    server = await startTestServer({
      overrides: { email: { smtpUrl: smtp.url }, sms: { gatewayUrl: sms.url } },
    });
    await server.api.post('/people', { name: 'Nobody reachable' });
  });
  after(async () => {
    await server.close();
    await smtp.close();
    await sms.close();
  });

  it('suppresses email and sms with "nobody with an address" when no person has one', async () => {
    const r = await server.api.post('/notifications', {
      title: 'Hello',
      channels: ['email', 'sms'],
    });
    expect(r.body).to.include({ delivered: 0, suppressed: 2 });
    expect(r.body.notification.deliveries).to.deep.equal([
      { channel: 'email', status: 'suppressed', reason: 'nobody with an email address' },
      { channel: 'sms', status: 'suppressed', reason: 'nobody with a phone number' },
    ]);
    expect(smtp.messages).to.have.length(0);
    expect(sms.sent).to.have.length(0);
  });
});

describe('GET /notifications', () => {
  let server: TestServer;
  const clock = new FakeClock('2026-11-22T08:30:00.000Z');
  before(async () => {
    server = await startTestServer({ now: clock.now });
  });
  after(() => server?.close());

  it('lists newest first with title and body, filters by triggerId, and pages with nextCursor', async () => {
    const ids: string[] = [];
    for (let i = 1; i <= 5; i++) {
      clock.advance(1_000);
      ids.push(
        (
          await server.api.post('/notifications', {
            title: `n${i}`,
            body: `b${i}`,
            ...(i % 2 ? { triggerId: 'trg_odd' } : {}),
          })
        ).body.notification.id,
      );
    }
    const all = await server.api.get('/notifications');
    expect(all.status).to.equal(200);
    await conforms(server, all, 'get', NOTIFICATIONS);
    expect(all.body.notifications.slice(0, 5).map((n: any) => [n.title, n.body])).to.deep.equal([
      ['n5', 'b5'],
      ['n4', 'b4'],
      ['n3', 'b3'],
      ['n2', 'b2'],
      ['n1', 'b1'],
    ]);
    const odd = await server.api.get('/notifications?triggerId=trg_odd');
    expect(odd.body.notifications.map((n: any) => n.title)).to.deep.equal(['n5', 'n3', 'n1']);
    const page1 = await server.api.get('/notifications?limit=2');
    expect(page1.body.notifications.map((n: any) => n.title)).to.deep.equal(['n5', 'n4']);
    const page2 = await server.api.get(`/notifications?limit=2&cursor=${page1.body.nextCursor}`);
    expect(page2.body.notifications.map((n: any) => n.title)).to.deep.equal(['n3', 'n2']);
    expect(
      (await server.api.get('/notifications?cursor=nonsense')).body.issues[0].path,
    ).to.deep.equal(['query', 'cursor']);
  });

  it('takes sinceMinutes from 1 to 43,200 and refuses 0 and 43,201 naming the parameter', async () => {
    for (const bad of ['0', '43201', '1.5', 'soon']) {
      const r = await server.api.get(`/notifications?sinceMinutes=${bad}`);
      expect(r.status, bad).to.equal(400);
      expect(r.body.issues[0].path).to.deep.equal(['query', 'sinceMinutes']);
    }
    for (const good of ['1', '43200'])
      expect((await server.api.get(`/notifications?sinceMinutes=${good}`)).status, good).to.equal(
        200,
      );
  });

  it('looks back exactly sinceMinutes, and never past 30 days; a pruning pass then removes what is older', async () => {
    const { client } = await server.family('since', {});
    clock.set('2026-12-01T00:00:00.000Z');
    await client.post('/notifications', { title: 'old' });
    clock.set('2026-12-01T00:01:00.000Z');
    await client.post('/notifications', { title: 'one minute later' });
    const titles = async (q: string) =>
      (await client.get(`/notifications${q}`)).body.notifications.map((n: any) => n.title);
    clock.set('2026-12-01T00:02:00.000Z');
    expect(await titles('?sinceMinutes=1')).to.deep.equal(['one minute later']);
    expect(await titles('?sinceMinutes=2')).to.deep.equal(['one minute later', 'old']);
    // 30 days after the first one: it is no longer listed, even before pruning.
    clock.set(new Date(Date.parse('2026-12-01T00:00:00.000Z') + 30 * 86_400_000 + 30_000));
    expect(await titles('?sinceMinutes=43200')).to.deep.equal(['one minute later']);
    expect(await titles('')).to.deep.equal(['one minute later']);
    const family = server.daemon.store.getFamilyBySlug('since')!;
    const prune = server.daemon.store.familyJobs(family.id).find((j) => j.kind === 'notify.prune')!;
    expect(prune.dueAt).to.equal(Date.parse('2026-12-01T00:00:00.000Z') + 30 * 86_400_000);
    await server.daemon.scheduler.runDue();
    const actor = await server.daemon.registry.get(family);
    expect(
      await actor.read((s) =>
        Array.from(s.table<any>('notifications').values()).map((n) => n.title),
      ),
    ).to.deep.equal(['one minute later']);
    // The pruning job comes back when the next one turns 30 days old.
    expect(
      server.daemon.store.familyJobs(family.id).find((j) => j.kind === 'notify.prune')!.dueAt,
    ).to.equal(Date.parse('2026-12-01T00:01:00.000Z') + 30 * 86_400_000);
  });
});
