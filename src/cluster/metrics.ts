/**
 * A cluster node's figures on /metrics (docs/scaling.md, "Operations"): whether it is connected,
 * how many families it owns, what it forwarded and received, takeovers, fenced appends and lost
 * leases, log entries passed over (log.ts: they do not count), and how far its follower has
 * applied the log. Counters are read from the runtime at
 * scrape time.
 */
import { Gauge, type Registry } from 'prom-client';
import type { ClusterRuntime } from './runtime.js';

export function registerClusterMetrics(registry: Registry, cluster: ClusterRuntime): void {
  const registers = [registry];
  const gauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['node'] as const,
      registers,
      collect() {
        this.set({ node: cluster.nodeName }, read());
      },
    });
  const f = () => cluster.figures();
  gauge('household_cluster_connected', '1 while the node is connected to NATS, else 0', () =>
    f().connected ? 1 : 0,
  );
  gauge(
    'household_cluster_owned_families',
    'Families whose lease this node holds',
    () => f().ownedFamilies,
  );
  gauge(
    'household_cluster_forwarded_requests_total',
    "Requests this node passed on to a family's owner",
    () => f().forwarded,
  );
  gauge(
    'household_cluster_forward_failures_total',
    'Requests this node could not pass on (the owner did not answer)',
    () => f().forwardFailures,
  );
  gauge(
    'household_cluster_received_forwards_total',
    'Requests other nodes passed on to this one',
    () => f().received,
  );
  gauge('household_cluster_takeovers_total', 'Families this node took over', () => f().takeovers);
  gauge(
    'household_cluster_fenced_appends_total',
    'Appends refused because another node had taken the family',
    () => f().fenced,
  );
  gauge(
    'household_cluster_lost_leases_total',
    'Leases this node lost at renewal',
    () => f().lostLeases,
  );
  gauge(
    'household_cluster_ignored_entries_total',
    'Log entries passed over: stored beside an earlier one that named the same last sequence',
    () => f().ignoredEntries,
  );
  gauge(
    'household_cluster_followed_sequence',
    'The last log stream sequence this node applied',
    () => f().followedSequence,
  );
}
