/**
 * One timed load round with autocannon (programmatic API, in the runner's process), and the
 * arithmetic over rounds. Latencies are recorded per response at sub-millisecond resolution
 * (autocannon's own histogram keeps whole milliseconds, too coarse for a 5 ms target), and
 * percentiles are taken over every 2xx response of every round of a target.
 */
import { readFileSync } from 'node:fs';
import autocannon, { type Request } from 'autocannon';

/** Busy CPU seconds of the whole machine so far (/proc/stat: all but idle and iowait). */
export function machineBusySeconds(): number {
  const f = readFileSync('/proc/stat', 'utf8')
    .split('\n', 1)[0]
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
  return (total - f[3] - f[4]) / 100;
}

export interface LoadSpec {
  /** Path and query, e.g. `/api/v1/families/x/trackers/chores/entries?limit=20`. */
  path: string;
  /** REPORT needs bench/caldav.ts's addition to autocannon's method list. */
  method?: 'GET' | 'POST' | 'PUT' | 'REPORT';
  headers?: Record<string, string>;
  body?: string;
  /** Per-request changes (a different family and key for each request). */
  setupRequest?: Request['setupRequest'];
}

export interface Round {
  seconds: number;
  ok: number;
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
  /** Latencies of 2xx responses, ms. */
  latencies: Float64Array;
  /** CPU seconds the server process used during the round (when known). */
  serverCpu?: number;
  /** CPU seconds the load generator (this process) used during the round. */
  loaderCpu: number;
  /** Busy CPU seconds of the whole machine during the round (server, load generator, kernel, anything else). */
  machineCpu: number;
}

export async function runRound(
  baseUrl: string,
  spec: LoadSpec,
  opts: { connections: number; seconds: number; overallRate?: number; serverCpu?: () => number },
): Promise<Round> {
  const request: Request = {
    method: spec.method ?? 'GET',
    path: spec.path,
    headers: {
      ...(spec.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(spec.headers ?? {}),
    },
    ...(spec.body !== undefined ? { body: spec.body } : {}),
    ...(spec.setupRequest ? { setupRequest: spec.setupRequest } : {}),
  };
  let latencies = new Float64Array(1 << 16);
  let n = 0;
  const cpu0 = opts.serverCpu?.();
  const loader0 = process.cpuUsage();
  const machine0 = machineBusySeconds();
  const instance = autocannon({
    url: baseUrl,
    connections: opts.connections,
    duration: opts.seconds,
    pipelining: 1,
    timeout: 10,
    requests: [request],
    ...(opts.overallRate ? { overallRate: opts.overallRate } : {}),
  });
  instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    if (status < 200 || status > 299) return;
    if (n === latencies.length) {
      const grown = new Float64Array(latencies.length * 2);
      grown.set(latencies);
      latencies = grown;
    }
    latencies[n++] = ms;
  });
  const result = await instance;
  const loader = process.cpuUsage(loader0);
  const machineCpu = machineBusySeconds() - machine0;
  const serverCpu = cpu0 === undefined ? undefined : opts.serverCpu!() - cpu0;
  const statusCodes: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {}))
    statusCodes[code] = Number(count);
  return {
    seconds: result.duration,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    statusCodes,
    latencies: latencies.subarray(0, n),
    loaderCpu: (loader.user + loader.system) / 1e6,
    machineCpu,
    ...(serverCpu !== undefined ? { serverCpu } : {}),
  };
}

export interface Summary {
  rps: number;
  p50: number;
  p99: number;
  /** req/s of each round, to show how steady the figure is. */
  perRound: number[];
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
  /** Server CPU per 2xx answer, µs (NaN when unknown). */
  cpuPerRequestUs: number;
  /** Server CPU use while loaded, in cores (1 = one core busy all the time). */
  serverCores: number;
  /** Load generator CPU use, in cores. */
  loaderCores: number;
  /** CPU use of everything else on the machine (kernel network work included), in cores. */
  otherCores: number;
}

export function summarize(rounds: Round[]): Summary {
  const total = rounds.reduce((s, r) => s + r.latencies.length, 0);
  const all = new Float64Array(total);
  let at = 0;
  for (const r of rounds) {
    all.set(r.latencies, at);
    at += r.latencies.length;
  }
  all.sort();
  const pct = (p: number) =>
    total ? all[Math.min(total - 1, Math.ceil((p / 100) * total) - 1)] : NaN;
  const seconds = rounds.reduce((s, r) => s + r.seconds, 0);
  const statusCodes: Record<string, number> = {};
  for (const r of rounds)
    for (const [c, n] of Object.entries(r.statusCodes)) statusCodes[c] = (statusCodes[c] ?? 0) + n;
  return {
    rps: rounds.reduce((s, r) => s + r.ok, 0) / seconds,
    p50: pct(50),
    p99: pct(99),
    perRound: rounds.map((r) => r.ok / r.seconds),
    non2xx: rounds.reduce((s, r) => s + r.non2xx, 0),
    errors: rounds.reduce((s, r) => s + r.errors, 0),
    statusCodes,
    cpuPerRequestUs:
      (1e6 * rounds.reduce((s, r) => s + (r.serverCpu ?? NaN), 0)) /
      rounds.reduce((s, r) => s + r.ok, 0),
    serverCores: rounds.reduce((s, r) => s + (r.serverCpu ?? NaN), 0) / seconds,
    loaderCores: rounds.reduce((s, r) => s + r.loaderCpu, 0) / seconds,
    otherCores:
      rounds.reduce((s, r) => s + r.machineCpu - r.loaderCpu - (r.serverCpu ?? 0), 0) / seconds,
  };
}
