/**
 * Runs the real executable (`bin/household-organizer`) as a child process, for tests that
 * kill it, restart it or drive the CLI beside it.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const BIN = resolve(root, 'bin/household-organizer');
const KEY = /(hk_[0-9A-Za-z]{12}_[0-9A-Za-z]{32})/;

export interface ChildDaemon {
  proc: ChildProcess;
  url: string;
  /** The first family's key, when this start created it. */
  bootstrapKey: string | null;
  output: () => string;
  /** What the daemon wrote on stdout alone (its JSON log). */
  stdout: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts `serve`. `launcher` runs it through another program (e.g. `unshare … sh -c …`): it
 * gets node's path and arguments and returns the command line to run instead.
 */
export async function spawnDaemon(
  dataDir: string,
  env: Record<string, string> = {},
  launcher?: (node: string, args: string[]) => [string, string[]],
): Promise<ChildDaemon> {
  // --no-setup: these tests start from the printed admin key (the setup page: test/pages).
  const args = [
    BIN,
    'serve',
    '--data-dir',
    dataDir,
    '--port',
    '0',
    '--host',
    '127.0.0.1',
    '--no-setup',
  ];
  const [command, argv] = launcher ? launcher(process.execPath, args) : [process.execPath, args];
  const proc = spawn(command, argv, {
    env: { ...process.env, HOUSEHOLD_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let stdout = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) =>
    proc.once('exit', (code, signal) => res({ code, signal })),
  );
  const url = await new Promise<string>((res, rej) => {
    // One that does not start in time is killed: left running, it would start later beside a
    // retry on the same data directory. Generous: a cluster node joining three NATS servers on a
    // loaded two-core machine has taken over 15 s (the daemon retries JetStream for 15 s).
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      rej(new Error(`daemon did not start:\n${out}`));
    }, 45_000);
    // The JSON log (stdout) says when it listens; the first-start key is printed on stderr,
    // which may arrive after it: wait for it when the log says a first family was made.
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /"url":"(http:\/\/[^"]+)"[^\n]*"msg":"listening on/.exec(out);
      const keyOwed = out.includes('created the first family') && !KEY.test(out);
      if (m && !keyOwed) {
        clearTimeout(timer);
        res(m[1]);
      }
    };
    proc.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      onData(c);
    });
    proc.stderr.on('data', onData);
    void exited.then(() => {
      clearTimeout(timer);
      rej(new Error(`daemon exited:\n${out}`));
    });
  });
  const key = KEY.exec(out);
  return {
    proc,
    url,
    bootstrapKey: key ? key[1] : null,
    output: () => out,
    stdout: () => stdout,
    exited,
  };
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs one command to its end; `as` runs it as another user (the test process must be root). */
export function runCli(
  args: string[],
  env: Record<string, string> = {},
  as?: { uid: number; gid: number },
): Promise<CliResult> {
  return new Promise((res) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...process.env, ...env }, ...(as ?? {}) },
      (err, stdout, stderr) => {
        res({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
      },
    );
  });
}

let inProcess: Promise<unknown> = Promise.resolve();

/**
 * Runs the command line's `main` in this process, with what it writes on stdout and stderr
 * captured: for tests of what the program says (help, usage errors), which would otherwise
 * spend most of their time starting a Node process per question. Runs one at a time (the
 * capture is the process's streams); env entries are set for the call and restored. A test of
 * the executable itself, its exit and its files uses runCli.
 */
export function runCliHere(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const run = inProcess.then(async () => {
    const { main } = await import('../../src/cli/main.js');
    const out = { stdout: '', stderr: '' };
    // The streams' own methods, put back as they were (not bound copies) when the call ends.
    // eslint-disable-next-line @typescript-eslint/unbound-method
    const writes = { stdout: process.stdout.write, stderr: process.stderr.write };
    const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
    const umask = process.umask();
    const capture = (name: 'stdout' | 'stderr') =>
      ((chunk: string | Uint8Array, ...rest: unknown[]) => {
        out[name] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
        const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
        done?.();
        return true;
      }) as typeof process.stdout.write;
    Object.assign(process.env, env);
    process.stdout.write = capture('stdout');
    process.stderr.write = capture('stderr');
    try {
      const code = await main(args);
      return { code, ...out };
    } finally {
      process.stdout.write = writes.stdout;
      process.stderr.write = writes.stderr;
      process.umask(umask);
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });
  inProcess = run.catch(() => undefined);
  return run;
}
