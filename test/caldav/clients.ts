/**
 * The real CalDAV clients the e2e tests drive, as child processes on loopback:
 * - python-caldav 0.11 (Debian's python3-caldav, the library Home Assistant's integration is
 *   built on) through test/caldav/caldav_client.py, one JSON command a line, each answer with
 *   the raw HTTP exchanges the library made;
 * - vdirsyncer 0.19 (Debian's vdirsyncer) with a config written to a temp folder.
 * Each runs under `timeout`, so a hung client cannot hold the suite. Where a program is missing
 * the matching `*_MISSING` text says why the tests skip.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface, type Interface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../../test/caldav/caldav_client.py', import.meta.url));
const PYTHON = '/usr/bin/python3';

/** Debian's python3 with python3-caldav, or null. (`python3` on PATH may be a shim without Debian's modules.) */
export const pythonCaldav: string | null =
  spawnSync(PYTHON, ['-c', 'import caldav, lxml, icalendar'], { encoding: 'utf8' }).status === 0
    ? PYTHON
    : null;
export const PYTHON_CALDAV_MISSING =
  'python3-caldav is not installed (apt-get install python3-caldav): the python-caldav client tests are skipped';

export const vdirsyncer: string | null =
  spawnSync('vdirsyncer', ['--version'], { encoding: 'utf8' }).status === 0 ? 'vdirsyncer' : null;
export const VDIRSYNCER_MISSING =
  'vdirsyncer is not installed (apt-get install vdirsyncer): the two-way sync test is skipped';

export interface Exchange {
  method: string;
  url: string;
  status: number;
  requestBody: string;
  responseBody: string;
}
export type Answer = {
  ok: boolean;
  error?: string;
  trace?: string;
  exchanges: Exchange[];
  [k: string]: any;
};

/** One python-caldav process; `ask` sends a command and waits for its answer line. */
export class PythonCaldav {
  private readonly proc: ChildProcessWithoutNullStreams;
  private readonly lines: Interface;
  private readonly pending: ((line: string) => void)[] = [];
  private stderr = '';

  constructor(seconds = 60) {
    this.proc = spawn('timeout', [String(seconds), pythonCaldav ?? PYTHON, SCRIPT], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.proc.stderr.on('data', (c: Buffer) => {
      this.stderr += c.toString();
    });
    this.lines = createInterface({ input: this.proc.stdout });
    this.lines.on('line', (line) => this.pending.shift()?.(line));
  }

  ask(cmd: Record<string, unknown>, timeoutMs = 15_000): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `python-caldav gave no answer to ${String(cmd.op)} within ${timeoutMs} ms; stderr: ${this.stderr}`,
            ),
          ),
        timeoutMs,
      );
      this.pending.push((line) => {
        clearTimeout(timer);
        resolve(JSON.parse(line) as Answer);
      });
      this.proc.stdin.write(`${JSON.stringify(cmd)}\n`);
    });
  }

  /** `ask`, failing with the library's error and trace when the command raised. */
  async must(cmd: Record<string, unknown>, timeoutMs?: number): Promise<Answer> {
    const a = await this.ask(cmd, timeoutMs);
    if (!a.ok) {
      const trail = a.exchanges
        .map((e) => `${e.method} ${e.url} → ${e.status}\n${e.responseBody.slice(0, 600)}`)
        .join('\n');
      throw new Error(
        `python-caldav ${String(cmd.op)} failed: ${a.error}\n${a.trace ?? ''}\n${trail}`,
      );
    }
    return a;
  }

  async close(): Promise<void> {
    if (this.proc.exitCode !== null) return;
    const exited = new Promise((resolve) => this.proc.once('exit', resolve));
    this.proc.stdin.end();
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
}

/** Runs a program under `timeout` and collects its output. */
export function run(
  cmd: string,
  args: string[],
  opts: { env?: Record<string, string>; input?: string; seconds?: number } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const proc = spawn('timeout', [String(opts.seconds ?? 30), cmd, ...args], {
      env: { ...process.env, ...(opts.env ?? {}) },
    });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    proc.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    proc.stdin.end(opts.input ?? '');
    proc.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The VEVENTs (or VTODOs) of an iCalendar text, as property maps (first value of each name, unfolded). */
export function components(ics: string, name = 'VEVENT'): Record<string, string>[] {
  const lines = ics.replace(/\r?\n[ \t]/g, '').split(/\r?\n/);
  const out: Record<string, string>[] = [];
  let cur: Record<string, string> | null = null;
  let depth = 0;
  for (const line of lines) {
    if (line === `BEGIN:${name}`) {
      cur = {};
      depth = 0;
      continue;
    }
    if (!cur) continue;
    if (line.startsWith('BEGIN:')) depth++;
    else if (line.startsWith('END:') && depth > 0) depth--;
    else if (line === `END:${name}`) {
      out.push(cur);
      cur = null;
    } else if (depth === 0) {
      const colon = line.indexOf(':');
      const head = line.slice(0, colon);
      const prop = head.split(';')[0].toUpperCase();
      // Keep the parameters with the value: "TZID=Europe/Berlin:20260302T170000".
      const params = head.includes(';') ? `${head.slice(head.indexOf(';') + 1)}:` : '';
      if (!(prop in cur)) cur[prop] = params + line.slice(colon + 1);
    }
  }
  return out;
}

/** The `<response>`s of a multistatus: href, status lines, and the calendar-data text if any. */
export function multistatus(
  xml: string,
): { href: string; statuses: string[]; calendarData: string | null; etag: string | null }[] {
  const out: {
    href: string;
    statuses: string[];
    calendarData: string | null;
    etag: string | null;
  }[] = [];
  const unescape = (s: string) =>
    s
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&#13;/g, '\r')
      .replace(/&#x?[dD];/g, '\r')
      .replace(/&amp;/g, '&');
  const text = (block: string, local: string) => {
    const m = new RegExp(
      `<(?:[\\w-]+:)?${local}(?:\\s[^>]*)?>([\\s\\S]*?)</(?:[\\w-]+:)?${local}>`,
    ).exec(block);
    if (!m) return null;
    const cdata = /^\s*<!\[CDATA\[([\s\S]*)\]\]>\s*$/.exec(m[1]);
    return cdata ? cdata[1] : unescape(m[1]);
  };
  for (const m of xml.matchAll(
    /<(?:[\w-]+:)?response(?:\s[^>]*)?>([\s\S]*?)<\/(?:[\w-]+:)?response>/g,
  )) {
    const block = m[1];
    out.push({
      href: decodeURIComponent(text(block, 'href')!.trim()),
      statuses: [...block.matchAll(/<(?:[\w-]+:)?status>([^<]*)</g)].map((s) => s[1].trim()),
      calendarData: text(block, 'calendar-data'),
      etag: text(block, 'getetag'),
    });
  }
  return out;
}
