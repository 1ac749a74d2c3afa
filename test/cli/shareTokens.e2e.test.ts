import { expect } from 'chai';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, tempDataDir, type TestServer } from '../helpers/server.js';
import { runCli } from '../helpers/child.js';

/**
 * What a backup and an export give whoever holds them (docs/storage.md, "Secrets at rest"):
 * plan-share tokens in plaintext, so the live links work for them; API keys and calendar-share
 * tokens only as hashes.
 */
describe('backup and export: the secrets they hold', function () {
  this.timeout(60_000);
  let server: TestServer;
  let root: string;
  let planPath: string;
  let calendarToken: string;

  before(async () => {
    root = tempDataDir();
    server = await startTestServer({ dataDir: join(root, 'data') });
    const plan = (await server.api.post('/plans', { title: 'Lake weekend' })).body;
    const on = await server.api.post(`/plans/${plan.planId}/share`, { enabled: true });
    expect(on.status).to.equal(200);
    planPath = new URL(on.body.shareUrl).pathname;
    const cal = await server.api.post('/calendar/shares', { name: 'Grandparents' });
    expect(cal.status).to.equal(201);
    calendarToken = cal.body.token;
  });
  after(async () => {
    await server.close({ keepData: true });
    rmSync(root, { recursive: true, force: true });
  });

  it('an export holds the plan-share token in plaintext, but only hashes of API keys and calendar-share tokens', async () => {
    const file = join(root, 'home.json');
    const r = await runCli(['export', 'home', '--out', file, '--data-dir', server.dataDir]);
    expect(r.code, r.stderr).to.equal(0);
    const text = readFileSync(file, 'utf8');
    const planToken = planPath.slice('/p/'.length);
    expect(planToken).to.match(/^pln_[0-9A-Za-z]{32}$/);
    expect(text).to.include(planToken);
    expect(text).to.not.include(calendarToken);
    expect(text).to.not.include(server.apiKey.split('_')[2]);
  });

  it('a restored backup serves the same live plan link until the share is disabled there', async () => {
    const target = join(root, 'backup');
    expect((await runCli(['backup', target, '--data-dir', server.dataDir])).code).to.equal(0);
    const restored = await startTestServer({ dataDir: target });
    try {
      const page = await restored.http.get(planPath, { headers: { accept: 'application/json' } });
      expect(page.status).to.equal(200);
      expect(page.body.title).to.equal('Lake weekend');
      const planId = (await restored.api.get('/plans')).body.plans[0].planId;
      const off = await restored.api.post(`/plans/${planId}/share`, { enabled: false });
      expect(off.body).to.deep.include({ enabled: false, shareUrl: null });
      expect(
        (await restored.http.get(planPath, { headers: { accept: 'application/json' } })).status,
      ).to.equal(404);
      // Enabling again brings back the same address: disabling does not retire the token.
      const back = await restored.api.post(`/plans/${planId}/share`, { enabled: true });
      expect(new URL(back.body.shareUrl).pathname).to.equal(planPath);
    } finally {
      await restored.close();
    }
  });
});
