/**
 * The cluster section of the configuration (docs/scaling.md): its keys and the values they take,
 * and the defaults of the optional ones. config.ts holds the other sections and loads the whole
 * (configEnv.ts, the variables that set keys); absent (null), the daemon is one embedded node.
 */
import { array, integer, nullable, object, refine, size, string, type Infer } from 'superstruct';

const Url = size(string(), 1, 2048);

/** A NATS server as the client dials it: `nats://`, `tls://` or `ws(s)://` host and port. */
const NatsUrl = refine(size(string(), 1, 2048), 'NatsUrl', (value) => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `must be a URL such as nats://10.0.0.5:4222, got "${value}"`;
  }
  return (
    (['nats:', 'tls:', 'ws:', 'wss:'].includes(url.protocol) && url.hostname !== '') ||
    `must be a nats://, tls://, ws:// or wss:// URL with a host, got "${value}"`
  );
});

/** How other nodes reach this one over HTTP (forwarded requests go there). */
const HttpUrl = refine(Url, 'HttpUrl', (value) => {
  const why = `must be an http:// or https:// URL, got "${value}"`;
  try {
    return /^https?:$/.test(new URL(value).protocol) || why;
  } catch {
    return why;
  }
});

/**
 * Cluster mode (docs/scaling.md): absent (null) is the single embedded node. `leaseSeconds`,
 * `credsFile` and `tls` may be left out (defaults in CLUSTER_DEFAULTS).
 */
export const ClusterStruct = object({
  natsServers: size(array(NatsUrl), 1, 64),
  /** Unique per node: the lease holder's name, in logs and metrics. */
  nodeName: refine(
    string(),
    'NodeName',
    (v) =>
      /^[A-Za-z0-9_-]{1,64}$/.test(v) || `must be 1 to 64 letters, digits, "-" or "_", got "${v}"`,
  ),
  advertiseUrl: HttpUrl,
  /** Shared by every node: the HMAC key of forwarded requests. */
  secret: refine(
    string(),
    'ClusterSecret',
    (t) =>
      (t.length >= 32 && t.length <= 1024) ||
      'must be 32 to 1024 characters (every node signs forwarded requests with it)',
  ),
  leaseSeconds: size(integer(), 1, 300),
  /**
   * Copies JetStream keeps of the log and the leases (1, 3 or 5; never more than the servers):
   * 3 on the usual three servers, so one may be lost without losing a write.
   */
  replicas: refine(integer(), 'Replicas', (n) => [1, 3, 5].includes(n) || 'must be 1, 3 or 5'),
  /** A NATS `.creds` file (JWT + nkey), or null. */
  credsFile: nullable(size(string(), 1, 4096)),
  /** TLS to NATS: files in PEM; null for a plain connection. */
  tls: nullable(
    object({
      caFile: nullable(size(string(), 1, 4096)),
      certFile: nullable(size(string(), 1, 4096)),
      keyFile: nullable(size(string(), 1, 4096)),
    }),
  ),
});

export const CLUSTER_DEFAULTS = {
  leaseSeconds: 10,
  replicas: 3,
  credsFile: null,
  tls: null,
} as const;

export type ClusterConfig = Infer<typeof ClusterStruct>;
