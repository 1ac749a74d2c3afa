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
    ...(cfg.credsFile ? { authenticator: credsAuthenticator(readFileSync(cfg.credsFile)) } : {}),
    ...(tls ? { tls } : {}),
  });
}
