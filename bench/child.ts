/**
 * The benchmark's child processes (the daemon and the floor server) and the small IPC protocol
 * between them and the runner: the child announces `{type: 'ready', url}`; the runner asks
 * `{type: 'stats'}`, sends other messages a child understands, and stops it with
 * `{type: 'close'}`. Children are separate processes so the load generator (autocannon, in the
 * runner) never shares an event loop with the server it measures, and both servers run under
 * the same conditions.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface ChildStats {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  /** Active family actors (daemon only). */
  active?: number;
}

/** USER_HZ: 100 on every Linux this runs on (getconf CLK_TCK). */
const CLOCK_TICKS = 100;

type Message = { type: string; id?: number; [k: string]: unknown };

export class Child {
  private nextId = 1;
  private readonly waiting = new Map<number, (m: Message) => void>();
  private exited: Promise<number | null>;

  private constructor(
    readonly proc: ChildProcess,
    readonly url: string,
  ) {
    proc.on('message', (m: Message) => {
      if (m.id !== undefined) {
        const resolve = this.waiting.get(m.id);
        this.waiting.delete(m.id);
        resolve?.(m);
      }
    });
    this.exited = new Promise((resolve) => proc.once('exit', (code) => resolve(code)));
  }

  /** Forks `script` with `env` added and waits (at most `timeoutMs`) for its ready message. */
  static async start(
    script: string,
    opts: { env?: Record<string, string>; execArgv?: string[]; init?: Message; timeoutMs?: number },
  ): Promise<Child> {
    const proc = fork(script, [], {
      env: { ...process.env, ...(opts.env ?? {}) },
      execArgv: opts.execArgv ?? [],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        proc.kill('SIGKILL');
        reject(new Error(`${script} did not start within ${opts.timeoutMs ?? 30_000} ms`));
      }, opts.timeoutMs ?? 30_000);
      proc.on('message', (m: Message) => {
        if (m.type === 'ready') {
          clearTimeout(timer);
          resolve(m.url as string);
        }
      });
      proc.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${script} exited with ${code} before it was ready`));
      });
      if (opts.init) proc.send(opts.init);
    });
    return new Child(proc, url);
  }

  get pid(): number {
    return this.proc.pid!;
  }

  /** Sends a message and waits for the reply carrying the same id. */
  ask<T = Message>(message: Message, timeoutMs = 30_000): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new Error(`no answer to ${message.type} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiting.set(id, (m) => {
        clearTimeout(timer);
        resolve(m as T);
      });
      this.proc.send({ ...message, id });
    });
  }

  stats(): Promise<ChildStats> {
    return this.ask<ChildStats & Message>({ type: 'stats' });
  }

  /**
   * Resident memory as the kernel reports it (/proc/<pid>/status), in bytes: VmRSS, and its
   * anonymous part (heap, stacks) and file-backed part (mapped files: the LMDB map, code).
   */
  memory(): { rss: number; anon: number; file: number } {
    const status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
    const kb = (name: string) => {
      const m = new RegExp(`^${name}:\\s+(\\d+)\\s+kB`, 'm').exec(status);
      return m ? Number(m[1]) * 1024 : NaN;
    };
    return { rss: kb('VmRSS'), anon: kb('RssAnon'), file: kb('RssFile') };
  }

  vmRss(): number {
    return this.memory().rss;
  }

  /** CPU time (user + system) the child has used so far, in seconds (/proc/<pid>/stat, 100 Hz ticks). */
  cpuSeconds(): number {
    const stat = readFileSync(`/proc/${this.pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(rest[11]) + Number(rest[12])) / CLOCK_TICKS;
  }

  /** Asks the child to stop in order; kills it if it has not exited within `timeoutMs`. */
  async close(timeoutMs = 15_000): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    if (this.proc.connected) this.proc.send({ type: 'close' });
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), timeoutMs);
    await this.exited;
    clearTimeout(timer);
  }
}

/** Child side: answers `stats` with process.memoryUsage() plus `extra()`, and `close` with `stop()`. */
export function serveChild(handlers: {
  extra?: () => Record<string, unknown>;
  stop: () => Promise<void>;
  on?: (m: Message) => Promise<Record<string, unknown> | void> | Record<string, unknown> | void;
}): void {
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    handlers.stop().then(
      () => process.exit(0),
      (err) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  const onMessage = async (m: Message) => {
    if (m.type === 'close') return stop();
    let reply: Record<string, unknown> | void;
    if (m.type === 'stats') {
      reply = { ...process.memoryUsage(), ...(handlers.extra?.() ?? {}) };
    } else {
      reply = await handlers.on?.(m);
    }
    if (m.id !== undefined) process.send!({ type: `${m.type}:reply`, id: m.id, ...(reply ?? {}) });
  };
  // A message that fails ends the child as an unhandled rejection would, but says so first.
  process.on('message', (m: Message) => {
    onMessage(m).catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
  });
  // The runner went away (crash, Ctrl-C): do not linger.
  process.on('disconnect', stop);
}

/**
 * Extra Node flags for a case's daemon process, from `--daemon-node-flags=a,b` on the bench's
 * command line (e.g. `--cpu-prof,--cpu-prof-dir=/tmp/x` to profile it).
 */
export function daemonNodeFlags(argv: readonly string[] = process.argv): string[] {
  return (
    argv
      .find((a) => a.startsWith('--daemon-node-flags='))
      ?.slice('--daemon-node-flags='.length)
      .split(',')
      .filter(Boolean) ?? []
  );
}

/**
 * The environment bench/daemon.ts reads for a data folder: 127.0.0.1 on port 0, warn logs, the
 * rate limit out of the way, no first family; `more` replaces whole sections on top.
 */
export function daemonEnv(
  dataDir: string,
  more: Record<string, unknown> = {},
): Record<string, string> {
  return {
    BENCH_DAEMON_OVERRIDES: JSON.stringify({
      server: { host: '127.0.0.1', port: 0, publicUrl: 'http://127.0.0.1' },
      storage: { dataDir },
      log: { level: 'warn' },
      rateLimit: { perMinute: 100_000_000 },
      families: { bootstrapSlug: null },
      ...more,
    }),
  };
}
