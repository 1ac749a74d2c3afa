/**
 * The daemon under test, in its own process: the same `startDaemon` that
 * `household-organizer serve` runs, with the configuration of `config/default.json` merged with
 * the JSON overrides in `BENCH_DAEMON_OVERRIDES` (data folder, port 0 on 127.0.0.1, log level
 * warn, a rate limit out of the way). It reports its URL to the runner over IPC, answers
 * `stats` with its memory and the number of active family actors, and stops in order on
 * `close`.
 *
 * `{type: 'commits'}` (bench/writeBreakdown.ts) answers the group commits counted so far and
 * LMDB's own figures for the environment; the first one starts counting, so the other cases
 * never carry the counting listener.
 */
import { loadConfig, type Config, type DeepPartial } from '../src/config.js';
import { startDaemon } from '../src/server.js';
import { createLogger } from '../src/logger.js';
import { serveChild } from './child.js';

/** Group commits since the first `commits` message: count, family batches, summed ms. */
let commits: { count: number; batches: number; ms: number; flushMs: number } | undefined;

/**
 * LMDB's figures for the environment (lmdb-js getStats: mdb_env_info and mdb_stat), read
 * through the store's private handle: a bench-only look that needs no API in src/.
 */
function lmdbInfo(store: unknown): Record<string, unknown> | null {
  const db = (store as { env?: { db?: { getStats?: () => Record<string, unknown> } } }).env?.db;
  if (typeof db?.getStats !== 'function') return null;
  const s = db.getStats();
  const free = s.free as Record<string, unknown> | undefined;
  return {
    pageSize: s.pageSize,
    lastPageNumber: s.lastPageNumber,
    lastTxnId: s.lastTxnId,
    entryCount: s.entryCount,
    treeDepth: s.treeDepth,
    leafPages: s.treeLeafPageCount,
    branchPages: s.treeBranchPageCount,
    overflowPages: s.overflowPages,
    freeEntries: free?.entryCount,
  };
}

const overrides = JSON.parse(process.env.BENCH_DAEMON_OVERRIDES ?? '{}') as DeepPartial<Config>;
const config = loadConfig({ env: {}, overrides });
const daemon = await startDaemon(config, {
  logger: createLogger(config.log.level),
  onBootstrap: () => {
    /* the bench makes its own families */
  },
});

serveChild({
  extra: () => ({ active: daemon.registry.activeCount }),
  stop: () => daemon.close(),
  // Only the memory case starts the child with --expose-gc, to show what eviction made free.
  on: async (m) => {
    // The backup case: the copy a scheduled backup makes, written by the daemon's own store.
    if (m.type === 'backup') {
      const t = process.hrtime.bigint();
      await daemon.store.backup(m.dir as string);
      return { ms: Number(process.hrtime.bigint() - t) / 1e6 };
    }
    if (m.type === 'commits') {
      if (!commits) {
        const c = (commits = { count: 0, batches: 0, ms: 0, flushMs: 0 });
        daemon.store.onCommit((ms, flushMs, batches) => {
          c.count++;
          c.batches += batches;
          c.ms += ms;
          c.flushMs += flushMs;
        });
      }
      return { ...commits, lmdb: lmdbInfo(daemon.store) };
    }
    if (m.type === 'gc') {
      const gc = (globalThis as { gc?: () => void }).gc;
      gc?.();
      return { collected: gc !== undefined };
    }
  },
});
process.send!({ type: 'ready', url: daemon.url });
