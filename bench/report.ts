/**
 * The benchmark's output: a console table, and the generated blocks of `docs/performance.md`.
 * The document's own prose (analysis, hot spots) lives outside the markers and is kept; a run
 * replaces only the block between its markers (throughput and memory separately, so a run
 * without `--memory` keeps the last memory figures).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import type { Summary } from './load.js';

export interface Target {
  /** Daemon/floor ratio at least this. */
  minRatio?: number;
  /** Daemon p99 below this, ms. */
  maxP99?: number;
  /** Daemon requests/s at least this. */
  minRps?: number;
}

export interface CaseResult {
  name: string;
  daemon?: Summary;
  floor?: Summary;
  target: Target;
  /** Why the case did not run. */
  skipped?: string;
  /** Open-loop case at this fixed rate (req/s): both servers answer the same rate, no ratio. */
  pacedRate?: number;
  /** Response body size (bytes) of the daemon and of the floor. */
  bodyBytes?: { daemon: number; floor: number };
}

export interface MemoryResult {
  families: number;
  entriesPerFamily: number;
  seedSeconds: number;
  activateSeconds: number;
  idleMinutes: number;
  points: {
    label: string;
    active: number;
    vmRss: number;
    anon: number;
    file: number;
    heapUsed: number;
    atSeconds: number;
  }[];
  /** Size of the LMDB data file. */
  storeBytes: number;
}

const n0 = (x: number) => Math.round(x).toLocaleString('en-US');
const ms = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '–');
const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;

export function ratio(c: CaseResult): number {
  return c.daemon && c.floor && !c.pacedRate ? c.daemon.rps / c.floor.rps : NaN;
}

const ratioText = (c: CaseResult) => (c.pacedRate ? 'paced' : ratio(c).toFixed(2));

/** Whether the case meets its target, and by how much it misses otherwise. */
export function verdict(c: CaseResult): { met: boolean; text: string } {
  if (!c.daemon) return { met: false, text: 'not run' };
  const misses: string[] = [];
  const t = c.target;
  if (t.minRatio !== undefined && !(ratio(c) >= t.minRatio)) {
    misses.push(
      `ratio ${ratio(c).toFixed(2)} < ${t.minRatio} (${(100 * (1 - ratio(c) / t.minRatio)).toFixed(0)} % short)`,
    );
  }
  if (t.maxP99 !== undefined && !(c.daemon.p99 < t.maxP99))
    misses.push(`p99 ${ms(c.daemon.p99)} ms ≥ ${t.maxP99} ms`);
  if (t.minRps !== undefined && !(c.daemon.rps >= t.minRps)) {
    misses.push(
      `${n0(c.daemon.rps)}/s < ${n0(t.minRps)}/s (${(100 * (1 - c.daemon.rps / t.minRps)).toFixed(0)} % short)`,
    );
  }
  if (c.daemon.non2xx || c.daemon.errors)
    misses.push(`${c.daemon.non2xx} non-2xx, ${c.daemon.errors} errors`);
  return misses.length
    ? { met: false, text: `NOT MET: ${misses.join('; ')}` }
    : { met: true, text: 'met' };
}

function targetText(t: Target): string {
  const parts: string[] = [];
  if (t.minRatio !== undefined) parts.push(`≥ ${t.minRatio} × floor`);
  if (t.maxP99 !== undefined) parts.push(`p99 < ${t.maxP99} ms`);
  if (t.minRps !== undefined) parts.push(`≥ ${n0(t.minRps)}/s`);
  return parts.join(', ');
}

export function consoleTable(cases: CaseResult[]): string {
  const head = [
    'case',
    'daemon req/s',
    'p50 ms',
    'p99 ms',
    'floor req/s',
    'p50 ms',
    'p99 ms',
    'ratio',
    'target',
    'verdict',
  ];
  const rows = cases.map((c) =>
    c.daemon && c.floor
      ? [
          c.name,
          n0(c.daemon.rps),
          ms(c.daemon.p50),
          ms(c.daemon.p99),
          n0(c.floor.rps),
          ms(c.floor.p50),
          ms(c.floor.p99),
          ratioText(c),
          targetText(c.target),
          verdict(c).text,
        ]
      : [
          c.name,
          '–',
          '–',
          '–',
          '–',
          '–',
          '–',
          '–',
          targetText(c.target),
          `not run: ${c.skipped ?? ''}`,
        ],
  );
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) =>
    r.map((v, i) => (i === 0 || i >= 8 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function machine(): string {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  return `${cpus().length} cores (nproc ${cpus().length}, ${cpu}), ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, Node ${process.version}, ${process.platform} ${process.arch}`;
}

export function throughputMarkdown(
  cases: CaseResult[],
  info: { command: string; connections: number; seconds: number; date: string; notes: string[] },
): string {
  const out = [
    `Run ${info.date} with \`${info.command}\` on ${machine()}.`,
    `autocannon in the runner process, ${info.connections} connections, pipelining 1, loopback (127.0.0.1); daemon and floor each in their own child process; ` +
      `per case a 1 s warm-up of each, then rounds A B A B (daemon, floor, daemon, floor) of ${info.seconds} s. req/s counts 2xx answers; ` +
      'p50/p99 are over every 2xx answer of both rounds, measured per response (sub-millisecond).',
    '',
    '| case | daemon req/s | p50 ms | p99 ms | floor req/s | p50 ms | p99 ms | ratio | target | verdict |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|---|',
  ];
  for (const c of cases) {
    if (!c.daemon || !c.floor) {
      out.push(
        `| ${c.name} | – | – | – | – | – | – | – | ${targetText(c.target)} | not run: ${c.skipped ?? ''} |`,
      );
      continue;
    }
    const v = verdict(c);
    out.push(
      `| ${c.name} | ${n0(c.daemon.rps)} | ${ms(c.daemon.p50)} | ${ms(c.daemon.p99)} | ${n0(c.floor.rps)} | ${ms(c.floor.p50)} | ${ms(c.floor.p99)} | ${ratioText(c)} | ${targetText(c.target)} | ${v.met ? 'met' : `**${v.text}**`} |`,
    );
  }
  out.push('', 'Per round (req/s) and body sizes:', '');
  for (const c of cases) {
    if (!c.daemon || !c.floor) continue;
    const sizes = c.bodyBytes
      ? `; reply bodies ${c.bodyBytes.daemon} B (daemon) / ${c.bodyBytes.floor} B (floor)`
      : '';
    const codes = c.daemon.non2xx
      ? `; daemon status codes ${JSON.stringify(c.daemon.statusCodes)}`
      : '';
    const cpu = `; server CPU per answer ${n0(c.daemon.cpuPerRequestUs)} µs (daemon, ${c.daemon.serverCores.toFixed(2)} cores busy) / ${n0(c.floor.cpuPerRequestUs)} µs (floor, ${c.floor.serverCores.toFixed(2)} cores); load generator ${c.daemon.loaderCores.toFixed(2)} / ${c.floor.loaderCores.toFixed(2)} cores; rest of the machine ${Math.max(0, c.daemon.otherCores).toFixed(2)} / ${Math.max(0, c.floor.otherCores).toFixed(2)} cores`;
    out.push(
      `- ${c.name}: daemon ${c.daemon.perRound.map(n0).join(', ')}; floor ${c.floor.perRound.map(n0).join(', ')}${cpu}${sizes}${codes}`,
    );
  }
  for (const note of info.notes) out.push(`- ${note}`);
  return out.join('\n');
}

export function memoryMarkdown(m: MemoryResult, info: { command: string; date: string }): string {
  const out = [
    `Run ${info.date} with \`${info.command}\` on ${machine()}.`,
    `${n0(m.families)} families × ${n0(m.entriesPerFamily)} chores entries (${n0(m.families * m.entriesPerFamily)} entries, LMDB file ${mib(m.storeBytes)}) written through the store's API ` +
      `in ${m.seedSeconds.toFixed(0)} s before the daemon started; \`families.actorIdleMinutes\` ${m.idleMinutes}. ` +
      `Every family was then activated with one GET of its entries (limit 20): ${m.activateSeconds.toFixed(1)} s for the first pass. ` +
      'RSS is VmRSS of the daemon process (/proc/<pid>/status), split into anonymous memory (V8 heap, native allocations) and ' +
      'file-backed pages (the LMDB memory map and code; the kernel can drop those); heap used and the active count come from the daemon itself.',
    '',
    '| moment | active actors | RSS | anonymous | file-backed | V8 heap used |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  for (const p of m.points)
    out.push(
      `| ${p.label} (t = ${p.atSeconds.toFixed(0)} s) | ${n0(p.active)} | ${mib(p.vmRss)} | ${mib(p.anon)} | ${mib(p.file)} | ${mib(p.heapUsed)} |`,
    );
  return out.join('\n');
}

export const THROUGHPUT_MARKERS = [
  '<!-- bench:throughput:start (generated by npm run bench) -->',
  '<!-- bench:throughput:end -->',
] as const;
export const CONTEXT_MARKERS = [
  '<!-- bench:context:start (generated by npm run bench -- --cases=context) -->',
  '<!-- bench:context:end -->',
] as const;
export const MEMORY_MARKERS = [
  '<!-- bench:memory:start (generated by npm run bench -- --memory) -->',
  '<!-- bench:memory:end -->',
] as const;

const SKELETON = `# Performance

How fast the daemon answers, measured by \`npm run bench\` (\`bench/\`).

## Throughput and latency

${THROUGHPUT_MARKERS[0]}
${THROUGHPUT_MARKERS[1]}

## Memory

${MEMORY_MARKERS[0]}
${MEMORY_MARKERS[1]}
`;

/** Replaces the block between `markers` in the document (created from a skeleton if absent). */
export function updateDoc(path: string, markers: readonly [string, string], block: string): void {
  let doc = existsSync(path) ? readFileSync(path, 'utf8') : SKELETON;
  const start = doc.indexOf(markers[0]);
  const end = doc.indexOf(markers[1]);
  if (start < 0 || end < start) doc += `\n${markers[0]}\n${markers[1]}\n`;
  const s = doc.indexOf(markers[0]);
  const e = doc.indexOf(markers[1]);
  doc = `${doc.slice(0, s + markers[0].length)}\n${block}\n${doc.slice(e)}`;
  writeFileSync(path, doc);
}
