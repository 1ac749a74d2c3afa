/**
 * One embedded daemon (the default): the LMDB store under `storage.dataDir`, every family's
 * actor and agenda run here, nothing in front of the doors, and every family's webhook outbox
 * resumes at start.
 */
import type { Store } from '../store/store.js';
import { ownsEveryFamily } from '../family/ownership.js';
import type { Topology, TopologyParts } from './topology.js';

export function embeddedTopology(store: Store): Topology {
  let parts: TopologyParts | undefined;
  return {
    store,
    ownership: ownsEveryFamily,
    agenda: store,
    front: () => null,
    listening: () => undefined,
    attach: (p) => {
      parts = p;
    },
    start: async () => {
      await parts?.webhooks.start();
    },
    health: () => ({}),
    metrics: () => undefined,
    release: () => Promise.resolve(),
    close: () => store.close(),
  };
}
