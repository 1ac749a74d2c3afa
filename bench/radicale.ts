/**
 * Radicale (Debian's `radicale` 3.1.8) as the bench's reference CalDAV server: started under
 * `timeout` on 127.0.0.1 with a port found free just before, its own storage folder in a temp
 * directory, no configuration file (the system one would ask for TLS and remote-user auth),
 * `auth none` (it takes the Basic user as the login) and `owner_only` rights, logging at
 * warning level so that request logging does not slow it down.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export const RADICALE_MISSING =
  'radicale is not installed (apt-get install radicale): the CalDAV comparison cannot run';

export function radicaleVersion(): string | null {
  const r = spawnSync('radicale', ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** A port nobody listens on right now (Radicale 3.1.8 reports the port it bound only at info level). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** CPU seconds (user + system) of a process so far, from /proc/<pid>/stat (100 Hz ticks). */
export function processCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(rest[11]) + Number(rest[12])) / 100;
}

export class Radicale {
  private constructor(
    readonly proc: ChildProcess,
    readonly url: string,
    readonly pid: number,
  ) {}

  static async start(
    storage: string,
    opts: { seconds: number; log: (s: string) => void },
  ): Promise<Radicale> {
    const port = await freePort();
    const proc = spawn(
      'timeout',
      [
        String(opts.seconds),
        'radicale',
        '--config',
        '',
        `--storage-filesystem-folder=${storage}`,
        `--server-hosts=127.0.0.1:${port}`,
        '--auth-type=none',
        '--rights-type=owner_only',
        '--logging-level=warning',
      ],
      { stdio: ['ignore', 'inherit', 'inherit'] },
    );
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 20_000;
    for (;;) {
      if (proc.exitCode !== null)
        throw new Error(`radicale exited with ${proc.exitCode} before it answered`);
      try {
        const res = await fetch(`${url}/.well-known/caldav`, { redirect: 'manual' });
        await res.arrayBuffer();
        break;
      } catch {
        if (Date.now() > deadline) {
          proc.kill('SIGKILL');
          throw new Error('radicale did not answer within 20 s');
        }
        await sleep(100);
      }
    }
    // `timeout` runs Radicale as its child: the CPU to measure is that child's.
    const children = readFileSync(`/proc/${proc.pid}/task/${proc.pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    if (children.length !== 1 || !children[0])
      throw new Error(
        `expected one radicale process under timeout ${proc.pid}, found ${children.join(',')}`,
      );
    opts.log(`radicale ${url} (pid ${children[0]}), storage in ${storage}`);
    return new Radicale(proc, url, children[0]);
  }

  cpuSeconds(): number {
    return processCpuSeconds(this.pid);
  }

  /** SIGTERM to `timeout` (it passes it on to Radicale); SIGKILL if it lingers. */
  async close(): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    const exited = new Promise((resolve) => this.proc.once('exit', resolve));
    this.proc.kill('SIGTERM');
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
}
