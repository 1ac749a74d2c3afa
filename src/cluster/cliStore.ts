/**
 * The command line on a cluster (docs/scaling.md, "Command line on a cluster"): a command runs
 * against a store in a fresh private temporary folder that a ClusterRuntime keeps current, its
 * writes going through the replicated log like a daemon's and its reads seeing the directory as
 * every node does (the cluster's side of src/cli/topology.ts). The CLI joins under a name of its own (the configured one plus
 * `-cli-<random>`), so it never holds or renews a daemon's leases; whatever lease it took (an
 * import) is released when it closes, and the folder is removed.
 *
 * A family's records and log are not in the directory: `catchUp` replays the family's subject
 * into the temporary store without taking its lease, so its owner keeps serving it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { ClusterConfig } from '../config.js';
import { NotFound } from '../domain/shared/errors.js';
import { createLogger } from '../logger.js';
import { Store } from '../store/store.js';
import type { HouseholdStore, WholeFamily } from '../store/ports.js';
import type { FamilyInfo } from '../store/types.js';
import { CHECKPOINT } from './replicated.js';
import { ClusterRuntime } from './runtime.js';

export interface ClusterStore {
  /** The temporary store, its writes through the replicated log. */
  store: HouseholdStore;
  runtime: ClusterRuntime;
  /** The CLI's own node name (`<nodeName>-cli-<random>`). */
  nodeName: string;
  /** Replays the family's subject into the temporary store (no lease taken); the family. */
  catchUp(slug: string): Promise<FamilyInfo>;
  /** Releases any lease taken, leaves the cluster, closes the store and removes its folder. */
  close(): Promise<void>;
}

/** The CLI's node name: the configured one with a random suffix, within the 64 allowed. */
export function cliNodeName(nodeName: string): string {
  const suffix = `-cli-${randomBytes(4).toString('hex')}`;
  return `${nodeName.slice(0, 64 - suffix.length)}${suffix}`;
}

/**
 * A whole family as it travels between clusters: without this node's record of how far it
 * applied the family's subject (a stream sequence of the cluster it came from, meaningless in
 * another one).
 */
export function portableWhole<T extends WholeFamily>(doc: T): T {
  if (!doc.checkpoints) return doc;
  const checkpoints = doc.checkpoints.filter((c) => c.consumer !== CHECKPOINT);
  const { checkpoints: _dropped, ...rest } = doc;
  return (checkpoints.length ? { ...rest, checkpoints } : rest) as T;
}

export async function openClusterStore(
  config: ClusterConfig,
  logger: Pick<Logger, 'error' | 'warn'> = createLogger('warn', process.stderr),
): Promise<ClusterStore> {
  const dir = mkdtempSync(join(tmpdir(), 'household-cli-'));
  const nodeName = cliNodeName(config.nodeName);
  let store: Store | undefined;
  try {
    store = Store.open(dir);
    const runtime = await ClusterRuntime.start({ ...config, nodeName }, store, logger);
    const local = store;
    const opened = runtime.store;
    let closed = false;
    return {
      store: opened,
      runtime,
      nodeName,
      async catchUp(slug) {
        const family = opened.getFamilyBySlug(slug);
        if (!family) throw new NotFound(`no family with slug "${slug}"`);
        await runtime.catchUp(family);
        return opened.getFamily(family.id) ?? family;
      },
      async close() {
        if (closed) return;
        closed = true;
        try {
          await runtime.releaseAll();
          await runtime.close();
        } finally {
          await local.close();
          rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (err) {
    await store?.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
