/**
 * `serve` with a cluster configuration whose NATS servers cannot be reached: it does not start a
 * lone embedded node that would look like a cluster member; it says which servers it could not
 * reach (exit 78) and makes no family.
 */
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { runCli } from '../helpers/child.js';
import { tempDataDir } from '../helpers/server.js';

describe('cluster: serve with a cluster configuration', () => {
  it('refuses to start without its NATS servers, naming them, and makes no family', async () => {
    const dir = tempDataDir();
    try {
      const r = await runCli(['serve', '--data-dir', dir, '--port', '0', '--host', '127.0.0.1'], {
        HOUSEHOLD_NATS_SERVERS: 'nats://127.0.0.1:1',
        HOUSEHOLD_NODE_NAME: 'a',
        HOUSEHOLD_ADVERTISE_URL: 'http://127.0.0.1:1',
        HOUSEHOLD_CLUSTER_SECRET: 'c'.repeat(32),
      });
      expect(r.code).to.equal(78);
      expect(r.stderr).to.match(/could not join the cluster through nats:\/\/127\.0\.0\.1:1/);
      expect(r.stderr).not.to.match(/hk_/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names a bad cluster variable', async () => {
    const r = await runCli(['serve', '--port', '0'], {
      HOUSEHOLD_NATS_SERVERS: 'http://127.0.0.1:1',
      HOUSEHOLD_NODE_NAME: 'a',
      HOUSEHOLD_ADVERTISE_URL: 'http://127.0.0.1:1',
      HOUSEHOLD_CLUSTER_SECRET: 'c'.repeat(32),
    });
    expect(r.code).to.equal(78);
    expect(r.stderr).to.match(/"cluster\.natsServers\.0" is invalid/);
  });
});
