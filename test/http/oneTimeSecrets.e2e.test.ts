/**
 * Every one-time secret is one-time under concurrency: the setup code, a
 * sign-in link, a pairing link, an OAuth code, a refresh token and a stream ticket, each fired
 * ten times at once over ten sockets, give exactly one success — and the loser's answers carry
 * nothing the winner got.
 */
import { expect } from 'chai';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { burst, formPost, formToken, sessionSet } from '../helpers/burst.js';
import { HouseholdAccess } from '../../src/family/access.js';
import {
  authorizeUrl,
  consent,
  redirectedTo,
  registerClient,
  TEST_CALLBACK,
  TEST_VERIFIER,
  approvedGrant,
} from '../helpers/oauth.js';

const N = 10;

describe('one-time secrets under concurrency', function () {
  this.timeout(30_000);
  let server: TestServer;
  let setupCode = '';

  before(async () => {
    server = await startTestServer({
      overrides: {
        server: { publicUrl: null },
        families: { bootstrapSlug: 'first', firstRunSetup: true },
      },
      hooks: {
        onSetupCode: (_family, code) => {
          setupCode = code;
        },
        onBootstrap: () => undefined,
      },
    });
  });
  after(() => server.close());

  it('the setup code: ten setups at once, one admin session', async () => {
    expect(setupCode).to.match(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    const token = await formToken(`${server.url}/`);
    const answers = await burst(
      N,
      `${server.url}/setup`,
      formPost(token, { code: setupCode, name: 'First', timezone: 'UTC', people: '' }),
    );
    const won = answers.filter((a) => a.status === 303 && sessionSet(a));
    expect(won, answers.map((a) => a.status).join(',')).to.have.length(1);
    for (const a of answers.filter((x) => !won.includes(x))) {
      // Refused, or sent to sign in (the family is set up by now): never a session.
      if (a.status === 303) expect(a.headers.location).to.equal('/signin');
      else expect(a.status).to.be.oneOf([400, 401, 429]);
      expect(sessionSet(a)).to.equal('');
    }
    const family = server.daemon.store.getFamilyBySlug('first')!;
    const sessions = server.daemon.store
      .listKeys(family.id)
      .filter((k) => k.kind === 'session' && !k.revokedAt);
    expect(sessions).to.have.length(1);
  });

  it('a sign-in link: ten sign-ins at once, one session', async () => {
    const access = new HouseholdAccess(server.daemon.store);
    const link = await access.createLink('home', new Date());
    const token = await formToken(`${server.url}/signin?link=${link.apiKey}`);
    const answers = await burst(N, `${server.url}/signin`, formPost(token, { link: link.apiKey }));
    const won = answers.filter((a) => a.status === 303 && sessionSet(a));
    expect(won, answers.map((a) => a.status).join(',')).to.have.length(1);
    expect(answers.filter((a) => a.status === 401 || a.status === 429)).to.have.length(N - 1);
    const family = server.daemon.store.getFamilyBySlug('home')!;
    const sessions = server.daemon.store
      .listKeys(family.id)
      .filter((k) => k.kind === 'session' && !k.revokedAt);
    expect(sessions).to.have.length(1);
  });

  it('a pairing link: ten Continues at once, one key shown', async () => {
    const made = await server.api.post('/devices', { name: 'Ana phone', scopes: ['read'] });
    expect(made.status).to.equal(201);
    const path = new URL(made.body.pairing.url as string).pathname;
    const token = await formToken(`${server.url}${path}`);
    const answers = await burst(N, `${server.url}${path}`, formPost(token, {}));
    const shown = answers.filter((a) => a.text.includes(made.body.apiKey as string));
    expect(shown, answers.map((a) => a.status).join(',')).to.have.length(1);
    expect(shown[0].status).to.equal(200);
    expect(answers.filter((a) => a.status === 404)).to.have.length(N - 1);
  });

  it('an OAuth code: ten exchanges at once, one set of tokens', async () => {
    const clientId = await registerClient(server.url);
    const answer = await consent(await authorizeUrl(server.url, clientId), server.apiKey);
    const code = redirectedTo(answer).searchParams.get('code')!;
    const body = new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: clientId,
      redirect_uri: TEST_CALLBACK,
      code,
      code_verifier: TEST_VERIFIER,
    }).toString();
    const answers = await burst(N, `${server.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    const ok = answers.filter((a) => a.status === 200);
    expect(ok, answers.map((a) => a.status).join(',')).to.have.length(1);
    expect(JSON.parse(ok[0].text).access_token).to.be.a('string');
    for (const a of answers.filter((x) => x.status !== 200)) expect(a.text).to.not.match(/hoa_/);
  });

  it('a refresh token: ten refreshes at once, one new pair', async () => {
    const grant = await approvedGrant(server.url, server.apiKey);
    const body = new URLSearchParams({
      grant_type: 'refresh_token',
      client_id: grant.clientId,
      refresh_token: grant.refreshToken,
    }).toString();
    const answers = await burst(N, `${server.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    const ok = answers.filter((a) => a.status === 200);
    expect(ok, answers.map((a) => a.status).join(',')).to.have.length(1);
    expect(answers.filter((a) => a.status === 400)).to.have.length(N - 1);
  });

  it('a stream ticket: ten streams at once, one opens', async () => {
    const t = await server.api.post('/changes/stream-tickets');
    expect(t.status).to.equal(201);
    const answers = await burst(
      N,
      `${server.url}/api/v1/families/home/changes/stream?ticket=${t.body.ticket as string}`,
    );
    expect(
      answers.filter((a) => a.status === 200),
      answers.map((a) => a.status).join(','),
    ).to.have.length(1);
    expect(answers.filter((a) => a.status === 401)).to.have.length(N - 1);
  });
});
