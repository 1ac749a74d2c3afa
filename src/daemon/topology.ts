/**
 * Which topology the daemon and the command line run on, decided once from the configuration:
 * with a `cluster` section a node of the cluster (src/cluster/topology.ts), else one embedded
 * daemon (src/topology/embedded.ts). The store is opened here, once: the node's LMDB behind the
 * replicated log, or the embedded LMDB.
 */
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { clusterTopology } from '../cluster/topology.js';
import { Store } from '../store/store.js';
import { logStoreHealth } from '../storeHealth.js';
import { embeddedTopology } from '../topology/embedded.js';
import type { Topology } from '../topology/topology.js';

export async function openTopology(config: Config, logger: Logger): Promise<Topology> {
  const local = Store.open(config.storage.dataDir, {
    mapSizeBytes: config.storage.mapSizeMiB * 1024 * 1024,
  });
  logStoreHealth(local, logger);
  if (!config.cluster) return embeddedTopology(local);
  try {
    return await clusterTopology(config.cluster, local, {
      logger,
      bodyLimitBytes: config.server.bodyLimitBytes,
    });
  } catch (err) {
    await local.close();
    throw err;
  }
}
