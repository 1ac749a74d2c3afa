/**
 * How the daemon's log reads. JSON lines, one object per line, for log collectors and
 * `docker logs` piped elsewhere; on a terminal (`log.format: auto`, the default) readable
 * lines instead:
 *
 *   16:34:38.120 INFO  GET /api/v1/families/:familySlug/people 200 3.1ms  family=home ip=127.0.0.1
 *
 * The readable form is a small formatter of our own over pino's JSON line, not pino-pretty:
 * it needs no worker thread and no further dependencies (pino-pretty brings a dozen), and the
 * daemon's lines have one shape worth special-casing (requests). Keys and tokens are never
 * logged in either form: logger.ts scrubs each line before it gets here.
 */
import type { DestinationStream } from 'pino';

export type LogFormat = 'auto' | 'json' | 'pretty';

const LEVELS: Record<number, [name: string, color: string]> = {
  10: ['TRACE', '90'],
  20: ['DEBUG', '36'],
  30: ['INFO ', '32'],
  40: ['WARN ', '33'],
  50: ['ERROR', '31'],
  60: ['FATAL', '35'],
};
/** Fields every line has, or that the readable form shows in its own place. */
const SHOWN = new Set(['level', 'time', 'msg', 'service', 'pid', 'hostname']);
const REQUEST_FIELDS = ['method', 'route', 'path', 'status', 'durationMs'];

/** `HH:MM:SS.mmm` in the machine's zone: a person at the terminal reads local time. */
function localTime(d: Date): string {
  if (Number.isNaN(d.getTime())) return '';
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
}

function value(v: unknown): string {
  if (typeof v === 'string') return /^[^\s"=]+$/.test(v) ? v : JSON.stringify(v);
  return JSON.stringify(v);
}

/**
 * One JSON log line as a person reads it: time, level, message (a request as method, route,
 * status and duration), then the other fields as key=value, and an error's stack below.
 */
export function prettyLine(json: string, color: boolean): string {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const paint = (code: string, text: string) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);
  const time = typeof o.time === 'string' ? localTime(new Date(o.time)) : '';
  const [name, code] = LEVELS[o.level as number] ?? ['?    ', '0'];
  let head = typeof o.msg === 'string' ? o.msg : '';
  const skip = new Set(SHOWN);
  if ((o.msg === 'request' || o.msg === 'request failed') && typeof o.method === 'string') {
    const route = typeof o.route === 'string' ? o.route : typeof o.path === 'string' ? o.path : '';
    head = `${o.method} ${route} ${String(o.status)} ${String(o.durationMs)}ms`;
    if (o.msg === 'request failed') head += ' (failed)';
    for (const f of REQUEST_FIELDS) skip.add(f);
  }
  const stack =
    (o.error as { stack?: unknown } | undefined)?.stack ??
    (o.err as { stack?: unknown } | undefined)?.stack;
  const rest = Object.entries(o)
    .filter(([k, v]) => !skip.has(k) && v !== null && v !== undefined)
    .map(([k, v]) => {
      if ((k === 'error' || k === 'err') && typeof v === 'object') {
        const { stack: _s, ...e } = v as Record<string, unknown>;
        return `${k}=${value(e)}`;
      }
      return `${k}=${value(v)}`;
    })
    .join(' ');
  const tail = typeof stack === 'string' ? `\n${paint('90', stack.replace(/^/gm, '    '))}` : '';
  return `${paint('90', time)} ${paint(code, name)} ${head}${rest ? `  ${paint('90', rest)}` : ''}${tail}\n`;
}

/** A destination that writes each of pino's JSON lines to `out` as a readable line. */
export function prettyDestination(
  out: { write(text: string): unknown; isTTY?: boolean } = process.stdout,
): DestinationStream {
  const color = out.isTTY === true && !process.env.NO_COLOR;
  return { write: (line: string) => void out.write(prettyLine(line, color)) };
}

/** Whether lines are written for a person: `pretty`, or `auto` while stdout is a terminal. */
export function prettyWanted(format: LogFormat, stdoutIsTerminal: boolean): boolean {
  return format === 'pretty' || (format === 'auto' && stdoutIsTerminal);
}
