/**
 * `serve` with a cluster configuration: the HTTP daemon does not run on the cluster yet, so it
 * refuses to start (exit 78, saying why) instead of running a lone embedded node that would
 * look like a cluster member; it creates no store. Without a cluster section nothing changes.
 */
import { expect } from 'chai';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../helpers/child.js';
import { tempDataDir } from '../helpers/server.js';

describe('cluster: serve with a cluster configuration', () => {
  it('refuses to start as a lone node, naming the cluster section, and writes nothing', async () => {
    const dir = tempDataDir();
    try {
      const r = await runCli(['serve', '--data-dir', dir, '--port', '0', '--host', '127.0.0.1'], {
        HOUSEHOLD_NATS_SERVERS: 'nats://127.0.0.1:1',
        HOUSEHOLD_NODE_NAME: 'a',
        HOUSEHOLD_ADVERTISE_URL: 'http://127.0.0.1:1',
        HOUSEHOLD_CLUSTER_SECRET: 'c'.repeat(32),
      });
      expect(r.code).to.equal(78);
      expect(r.stderr).to.match(/cluster mode is configured but `serve` does not run it yet/);
      expect(existsSync(join(dir, 'household.mdb'))).to.equal(false);
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
