/**
 * The independent expansion the feed tests compare against: Debian's python3-recurring-ical-events
 * (with python3-x-wr-timezone) run by test/feeds/independent_expansion.py. `.ci/run` installs
 * both; where they are missing, `python` is null and the tests that need it skip, saying so.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface Row {
  title: string;
  date: string;
  time: string | null;
  endDate: string;
  endTime: string | null;
}

const SCRIPT = fileURLToPath(
  new URL('../../../test/feeds/independent_expansion.py', import.meta.url),
);

/** The first Python that has the libraries (Debian's own first: a pyenv shim may lack them). */
function findPython(): string | null {
  for (const candidate of ['/usr/bin/python3', 'python3']) {
    const r = spawnSync(candidate, ['-c', 'import recurring_ical_events, x_wr_timezone'], {
      encoding: 'utf8',
    });
    if (r.status === 0) return candidate;
  }
  return null;
}

export const python = findPython();

export const MISSING =
  'python3-recurring-ical-events / python3-x-wr-timezone are not installed (apt-get install python3-recurring-ical-events python3-x-wr-timezone): the comparison with an independent expansion is skipped';

/** Occurrences starting on a local date in [from, to], as the independent expansion sees them (cancelled ones left out). */
export function independentExpansion(file: string, from: string, to: string, zone: string): Row[] {
  if (!python) throw new Error(MISSING);
  const r = spawnSync(python, [SCRIPT, file, from, to, zone], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`independent expansion failed: ${r.stderr}`);
  return (JSON.parse(r.stdout) as (Row & { status: string })[])
    .filter((o) => o.status !== 'CANCELLED')
    .map((o) => ({
      title: o.title.trim(),
      date: o.date,
      time: o.time,
      endDate: o.endDate,
      endTime: o.endTime,
    }));
}

/** Rows in one order, for comparing sets. */
export function sorted(rows: Row[]): Row[] {
  const key = (r: Row) =>
    [r.date, r.time ?? '', r.title, r.endDate, r.endTime ?? ''].join('\u0000');
  return [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}
