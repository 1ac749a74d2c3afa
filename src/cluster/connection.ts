/**
 * The NATS connection of a cluster node, from `cluster.*` (credentials and TLS included), and
 * the names every node agrees on: one stream for every family's log, one bucket for leases.
 */
import { readFileSync } from 'node:fs';
import { connect, credsAuthenticator, type NatsConnection } from '@nats-io/transport-node';
import type { ClusterConfig } from '../config.js';

/** The replicated stream holding every family's log, one subject per family. */
export const LOG_STREAM = 'HOUSEHOLD_LOG';
/** A family's subject in LOG_STREAM. Family ids (`fam_…`) are valid subject tokens. */
export function familySubject(familyId: string): string {
  return `household.log.${familyId}`;
}
const FAMILY_PREFIX = 'household.log.';
/** The family a subject of LOG_STREAM belongs to, or null for the directory's subject. */
export function familyOfSubject(subject: string): string | null {
  return subject.startsWith(FAMILY_PREFIX) ? subject.slice(FAMILY_PREFIX.length) : null;
}
/**
 * The directory's subject in LOG_STREAM: families, API keys, queued family updates, OAuth
 * records — what every node must know, whichever families it owns (src/cluster/directory.ts).
 */
export const DIRECTORY_SUBJECT = 'household.directory';
/** The KV bucket of ownership leases, one key per family. */
export const LEASE_BUCKET = 'household-leases';

export type ClusterConnectionConfig = Pick<
  ClusterConfig,
  'natsServers' | 'nodeName' | 'credsFile' | 'tls'
>;

export async function connectCluster(cfg: ClusterConnectionConfig): Promise<NatsConnection> {
  const tls = cfg.tls
    ? Object.fromEntries(Object.entries(cfg.tls).filter(([, v]) => v !== null))
    : undefined;
  return connect({
    servers: cfg.natsServers,
    name: `household-${cfg.nodeName}`,
    // A node keeps trying for as long as it runs: losing NATS stops writes, not the process.
    maxReconnectAttempts: -1,
    reconnectTimeWait: 250,
    // The client otherwise makes an Error (a stack trace) for every request it sends — every
    // append and its acknowledgement — only to give a failed one its caller's stack: a visible
    // share of a write's CPU on the owner (docs/performance.md, "Cluster"). Our errors name
    // what failed themselves.
    noAsyncTraces: true,
    ...(cfg.credsFile ? { authenticator: credsAuthenticator(readFileSync(cfg.credsFile)) } : {}),
    ...(tls ? { tls } : {}),
  });
}

/**
 * What the daemon says at start about the NATS server it joined, from the version the server
 * reports (its INFO): nothing for a release past the known losses, else one warning line. A
 * client cannot read the server's `sync_interval`; docs/scaling.md ("Durability") says why the
 * cluster's servers must sync always (config/nats.conf) and what each setting guarantees.
 */
export function natsServerWarning(version: string | undefined): string | null {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version ?? '');
  if (!m)
    return `the NATS server did not report a version: check it is 2.10.23 or later and syncs always (docs/scaling.md, "Durability")`;
  const [major, minor, patch] = m.slice(1).map(Number);
  const at = (a: number, b: number, c: number) =>
    major !== a ? major > a : minor !== b ? minor > b : patch >= c;
  if (at(2, 10, 23)) return null;
  const why = at(2, 10, 0)
    ? 'loses whole JetStream streams when its processes crash (fixed in 2.10.23)'
    : 'cannot sync JetStream before acknowledging (no sync_interval before 2.10) and loses streams on crashes fixed in 2.10.23';
  return `NATS server ${version} ${why}: acknowledged writes can be lost; upgrade to the release compose.cluster.yaml ships and set jetstream { sync_interval: always } (docs/scaling.md, "Durability")`;
}
