/**
 * A process's own counters, thread by thread, from /proc: CPU (utime and stime of
 * /proc/<pid>/stat and of each /proc/<pid>/task/<tid>/stat) and I/O (/proc/<pid>/io and each
 * thread's io: bytes handed to write(), write calls, bytes sent to the block layer). Two
 * samples around a load round give what the round cost and which threads spent it: the main
 * thread (tid == pid) apart, the others grouped by their name (/proc/<pid>/task/<tid>/comm:
 * libuv-worker, node-V8Worker, …). utime and stime are sampled at the clock tick (a thread that
 * runs briefly between ticks may show none); each thread's schedstat (/proc/<pid>/task/<tid>/
 * schedstat, nanoseconds on a CPU, exact) is kept beside them. Linux only, as the rest of the
 * bench.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** /proc/<pid>/io and /proc/<pid>/task/<tid>/io. */
export interface IoCounters {
  /** Bytes handed to read()/write()-like calls (sockets and files alike). */
  rchar: number;
  wchar: number;
  /** Read and write calls. */
  syscr: number;
  syscw: number;
  /** Bytes the block layer was asked to read or write (pages dirtied in a file, ext4 here). */
  read_bytes: number;
  write_bytes: number;
  cancelled_write_bytes: number;
}

const IO_FIELDS: (keyof IoCounters)[] = [
  'rchar',
  'wchar',
  'syscr',
  'syscw',
  'read_bytes',
  'write_bytes',
  'cancelled_write_bytes',
];

interface ThreadSample {
  comm: string;
  /** CPU seconds. */
  user: number;
  system: number;
  /** Seconds on a CPU (schedstat), user and system together. */
  run: number;
  io: IoCounters | null;
}

export interface ProcSample {
  pid: number;
  user: number;
  system: number;
  io: IoCounters | null;
  threads: Map<number, ThreadSample>;
}

/** CPU used and I/O done by one group of threads between two samples. */
export interface GroupUsage {
  name: string;
  /** Threads of the group alive at the end. */
  threads: number;
  user: number;
  system: number;
  /** Seconds on a CPU (schedstat). */
  run: number;
  io: IoCounters;
}

export interface ProcUsage {
  user: number;
  system: number;
  io: IoCounters;
  main: GroupUsage;
  /** Other threads, by name, most CPU first. */
  others: GroupUsage[];
  /** CPU of threads that ended between the samples (the process's total less its live threads'). */
  exited: { user: number; system: number };
}

let ticks: number | undefined;

/** USER_HZ, the unit of utime and stime: `getconf CLK_TCK` (100 on every Linux seen). */
export function clockTicks(): number {
  if (ticks === undefined) {
    try {
      ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticks = 100;
    }
  }
  return ticks;
}

function readOr(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** utime and stime (fields 14 and 15) of a stat file, in seconds. */
function cpuOf(stat: string): { user: number; system: number } {
  // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { user: Number(rest[11]) / clockTicks(), system: Number(rest[12]) / clockTicks() };
}

function ioOf(text: string | null): IoCounters | null {
  if (text === null) return null;
  const io = zeroIo();
  for (const line of text.split('\n')) {
    const [name, value] = line.split(':');
    if ((IO_FIELDS as string[]).includes(name)) io[name as keyof IoCounters] = Number(value);
  }
  return io;
}

export function zeroIo(): IoCounters {
  return {
    rchar: 0,
    wchar: 0,
    syscr: 0,
    syscw: 0,
    read_bytes: 0,
    write_bytes: 0,
    cancelled_write_bytes: 0,
  };
}

function ioDiff(a: IoCounters | null, b: IoCounters | null): IoCounters {
  const out = zeroIo();
  if (!b) return out;
  for (const f of IO_FIELDS) out[f] = b[f] - (a?.[f] ?? 0);
  return out;
}

function ioAdd(a: IoCounters, b: IoCounters): IoCounters {
  const out = zeroIo();
  for (const f of IO_FIELDS) out[f] = a[f] + b[f];
  return out;
}

/** The process's and each live thread's counters now. */
export function sampleProcess(pid: number): ProcSample {
  const threads = new Map<number, ThreadSample>();
  for (const t of readdirSync(`/proc/${pid}/task`)) {
    const dir = `/proc/${pid}/task/${t}`;
    const stat = readOr(`${dir}/stat`);
    if (stat === null) continue; // ended while we looked
    threads.set(Number(t), {
      comm: (readOr(`${dir}/comm`) ?? '?').trim(),
      ...cpuOf(stat),
      run: Number((readOr(`${dir}/schedstat`) ?? '0').split(' ')[0]) / 1e9,
      io: ioOf(readOr(`${dir}/io`)),
    });
  }
  return {
    pid,
    ...cpuOf(readFileSync(`/proc/${pid}/stat`, 'utf8')),
    io: ioOf(readOr(`/proc/${pid}/io`)),
    threads,
  };
}

/** A thread's group: its name without a trailing number (pool threads share a name anyway). */
function groupName(comm: string): string {
  return comm.replace(/[-_ #]?\d+$/, '') || comm;
}

/** What the process and its threads spent between two samples of it. */
export function usageBetween(a: ProcSample, b: ProcSample): ProcUsage {
  const groups = new Map<string, GroupUsage>();
  let main: GroupUsage | undefined;
  let liveUser = 0;
  let liveSystem = 0;
  for (const [tid, t1] of b.threads) {
    const t0 = a.threads.get(tid);
    const user = t1.user - (t0?.user ?? 0);
    const system = t1.system - (t0?.system ?? 0);
    const run = t1.run - (t0?.run ?? 0);
    liveUser += user;
    liveSystem += system;
    const io = ioDiff(t0?.io ?? null, t1.io);
    if (tid === b.pid) {
      main = { name: `main thread (${t1.comm})`, threads: 1, user, system, run, io };
      continue;
    }
    const name = groupName(t1.comm);
    const g = groups.get(name) ?? { name, threads: 0, user: 0, system: 0, run: 0, io: zeroIo() };
    g.threads++;
    g.user += user;
    g.system += system;
    g.run += run;
    g.io = ioAdd(g.io, io);
    groups.set(name, g);
  }
  const user = b.user - a.user;
  const system = b.system - a.system;
  return {
    user,
    system,
    io: ioDiff(a.io, b.io),
    main: main ?? { name: 'main thread', threads: 0, user: 0, system: 0, run: 0, io: zeroIo() },
    others: [...groups.values()].sort((x, y) => y.user + y.system - (x.user + x.system)),
    exited: { user: Math.max(0, user - liveUser), system: Math.max(0, system - liveSystem) },
  };
}

function addGroup(a: GroupUsage, b: GroupUsage): GroupUsage {
  return {
    name: a.name,
    threads: Math.max(a.threads, b.threads),
    user: a.user + b.user,
    system: a.system + b.system,
    run: a.run + b.run,
    io: ioAdd(a.io, b.io),
  };
}

/** The sum of several rounds' usage (the groups matched by name). */
export function addUsage(a: ProcUsage, b: ProcUsage): ProcUsage {
  const others = new Map(a.others.map((g) => [g.name, g]));
  for (const g of b.others) {
    const mine = others.get(g.name);
    others.set(g.name, mine ? addGroup(mine, g) : g);
  }
  return {
    user: a.user + b.user,
    system: a.system + b.system,
    io: ioAdd(a.io, b.io),
    main: addGroup(a.main, b.main),
    others: [...others.values()].sort((x, y) => y.user + y.system - (x.user + x.system)),
    exited: { user: a.exited.user + b.exited.user, system: a.exited.system + b.exited.system },
  };
}
