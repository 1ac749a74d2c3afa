/**
 * The NATS server the cluster runs on: the shipped JetStream settings (config/nats.conf, which
 * compose.cluster.yaml mounts) are accepted by the server the tests run, which is the line the
 * compose file pins; and the daemon's warning at start about a server known to lose
 * acknowledged writes (docs/scaling.md, "Durability").
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';
import { natsServerWarning } from '../../src/cluster/connection.js';
import { hasNatsServer, natsServerVersion, natsSyncsAlways, NO_NATS } from '../helpers/nats.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

describe('cluster: the NATS server and its durability', () => {
  it('accepts the shipped settings (sync_interval: always) on the server the tests run', function () {
    if (!hasNatsServer()) this.skip(); // NO_NATS
    if (!natsSyncsAlways()) {
      // Said in the count: a server before 2.10 does not know the setting the cluster ships.
      this.test!.title += ` (skipped: nats-server ${natsServerVersion()?.join('.')} predates sync_interval)`;
      this.skip();
    }
    const r = spawnSync('nats-server', ['-c', resolve(root, 'config/nats.conf'), '-t'], {
      encoding: 'utf8',
    });
    expect(r.status, `${r.stdout}${r.stderr}`).to.equal(0);
    expect(`${r.stdout}${r.stderr}`).to.include('is valid');
  });

  it('runs the same NATS line the compose file ships', function () {
    if (!hasNatsServer()) {
      this.test!.title += ` (${NO_NATS})`;
      this.skip();
    }
    const compose = spawnSync(
      'grep',
      ['-o', 'nats:[0-9.]*', resolve(root, 'compose.cluster.yaml')],
      {
        encoding: 'utf8',
      },
    ).stdout;
    const shipped = /nats:(\d+)\.(\d+)\./.exec(compose);
    expect(shipped).to.not.equal(null);
    const v = natsServerVersion()!;
    if (!natsSyncsAlways()) {
      this.test!.title += ` (skipped: the machine's nats-server ${v.join('.')} is not the shipped line)`;
      this.skip();
    }
    expect(`${v[0]}.${v[1]}`).to.equal(`${shipped![1]}.${shipped![2]}`);
  });

  it('warns at start about a server that loses acknowledged writes, and not about a fixed one', () => {
    for (const v of ['2.9.10', 'v2.9.25', '2.10.0', '2.10.22', undefined, 'unknown'])
      expect(natsServerWarning(v), String(v)).to.be.a('string').and.include('docs/scaling.md');
    expect(natsServerWarning('2.9.10')).to.include('sync_interval');
    expect(natsServerWarning('2.10.22')).to.include('2.10.23');
    for (const v of ['2.10.23', '2.10.27', '2.11.0', '2.12.1', '2.15.1', 'v3.0.0'])
      expect(natsServerWarning(v), v).to.equal(null);
  });
});
