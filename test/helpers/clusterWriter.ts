/**
 * A cluster node in a process of its own, for tests that SIGKILL or SIGSTOP it: it takes one
 * family and commits change after change, printing `ack <seq>` once each is acknowledged and
 * applied, `refused <seq> <reason>` when a commit is refused (then it stops writing), and
 * `owned` once it holds the family. Arguments: natsUrl nodeName familyId dataDir leaseSeconds.
 */
import { Store } from '../../src/store/store.js';
import { ClusterNode } from '../../src/cluster/node.js';
import type { ChangeRecord } from '../../src/store/types.js';

const [url, nodeName, familyId, dataDir, leaseSeconds] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
];
const store = Store.open(dataDir);
const node = await ClusterNode.start(
  {
    natsServers: [url],
    nodeName,
    advertiseUrl: 'http://127.0.0.1:1',
    secret: 'w'.repeat(32),
    leaseSeconds: Number(leaseSeconds),
    replicas: 3,
    credsFile: null,
    tls: null,
  },
  store,
  { replicas: 3 },
);
if (!(await node.commits.own(familyId))) {
  process.stdout.write('not-owner\n');
  process.exit(3);
}
process.stdout.write('owned\n');
for (let seq = store.lastSeq(familyId) + 1; ; seq++) {
  const record: ChangeRecord = {
    id: `event_${String(seq).padStart(20, '0')}`,
    seq,
    at: new Date().toISOString(),
    type: 'person.created',
    actor: { keyId: null, personId: null },
    object: { seq, by: nodeName },
  };
  try {
    await node.commits.commit(familyId, { log: [record], expectedLastSeq: seq - 1 });
    process.stdout.write(`ack ${seq}\n`);
  } catch (err) {
    process.stdout.write(
      `refused ${seq} ${(err as Error).constructor.name}: ${(err as Error).message}\n`,
    );
    break;
  }
}
await node.close();
await store.close();
