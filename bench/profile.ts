/**
 * Summary of a V8 CPU profile (`node --cpu-prof`): self time by function and by package, so a
 * benchmark run can name its hot spots (`npm run bench -- --profile`).
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
}

/** Where a frame's code lives: our source file, a package, Node's internals or V8. */
function owner(url: string): string {
  if (!url) return '(native / V8)';
  if (url.startsWith('node:')) return 'node internals';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const ours = /\/dist\/(src\/.+)$/.exec(url);
  return ours ? ours[1].replace(/\.js$/, '.ts') : url;
}

export function summarizeProfile(file: string, top = 25): string {
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byFn = new Map<string, number>();
  const byOwner = new Map<string, number>();
  let busy = 0;
  for (const n of p.nodes) {
    const hits = n.hitCount ?? 0;
    const f = n.callFrame;
    // Shares are of the time the process was busy: idle samples (waiting for I/O) are left out.
    if (!hits || f.functionName === '(idle)') continue;
    busy += hits;
    const where = owner(f.url);
    const name = `${f.functionName || '(anonymous)'}  ${where}${f.url ? `:${f.lineNumber + 1}` : ''}`;
    byFn.set(name, (byFn.get(name) ?? 0) + hits);
    byOwner.set(where, (byOwner.get(where) ?? 0) + hits);
  }
  const total = busy || 1;
  const pct = (n: number) => `${((100 * n) / total).toFixed(1).padStart(5)} %`;
  const lines = [
    `CPU profile ${file} (${((p.endTime - p.startTime) / 1e6).toFixed(1)} s, busy in ${busy} of ${p.samples.length} samples)`,
    '',
    'Self time by function, share of busy time:',
  ];
  for (const [k, n] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, top))
    lines.push(`  ${pct(n)}  ${k}`);
  lines.push('', 'Self time by owner, share of busy time:');
  for (const [k, n] of [...byOwner].sort((a, b) => b[1] - a[1]).slice(0, 15))
    lines.push(`  ${pct(n)}  ${k}`);
  return lines.join('\n');
}
