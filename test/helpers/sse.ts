/**
 * A server-sent events reader for tests: a real HTTP GET (node:http), the body parsed into
 * events as the spec's parser does (fields up to a blank line; comments kept apart).
 */
import { request, type IncomingMessage, type ClientRequest } from 'node:http';

export interface SseEvent {
  id?: string;
  event: string;
  data: string;
}

export class SseReader {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  ended = false;
  private buffer = '';
  private waiters: (() => void)[] = [];

  constructor(
    readonly res: IncomingMessage,
    readonly req: ClientRequest,
  ) {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      this.buffer += chunk;
      this.parse();
    });
    res.on('end', () => {
      this.ended = true;
      this.wake();
    });
    res.on('error', () => {
      this.ended = true;
      this.wake();
    });
    res.on('close', () => {
      this.ended = true;
      this.wake();
    });
  }

  get status(): number {
    return this.res.statusCode ?? 0;
  }

  /** Resolves when `ready()` holds (checked on every chunk), or rejects after `ms`. */
  async until(ready: () => boolean, ms = 5_000, what = 'the stream'): Promise<void> {
    const deadline = Date.now() + ms;
    while (!ready()) {
      if (Date.now() > deadline)
        throw new Error(
          `timed out waiting for ${what}; events so far: ${this.events.map((e) => `${e.id}:${e.event}`).join(', ')}`,
        );
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 50);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** Waits for `n` events in total. */
  count(n: number, ms?: number): Promise<void> {
    return this.until(() => this.events.length >= n, ms, `${n} events`);
  }

  close(): void {
    this.req.destroy();
  }

  private parse(): void {
    for (;;) {
      const end = this.buffer.indexOf('\n\n');
      if (end < 0) break;
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const ev: SseEvent = { event: 'message', data: '' };
      const data: string[] = [];
      let any = false;
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) {
          this.comments.push(line.slice(1).trim());
          continue;
        }
        const i = line.indexOf(':');
        const field = i < 0 ? line : line.slice(0, i);
        const value = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
        any = true;
        if (field === 'id') ev.id = value;
        else if (field === 'event') ev.event = value;
        else if (field === 'data') data.push(value);
      }
      if (any) {
        ev.data = data.join('\n');
        this.events.push(ev);
      }
    }
    this.wake();
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }
}

/** Opens an event stream; resolves once the answer's head has arrived (any status). */
export function openSse(url: string, headers: Record<string, string> = {}): Promise<SseReader> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { accept: 'text/event-stream', ...headers } }, (res) =>
      resolve(new SseReader(res, req)),
    );
    req.on('error', reject);
    req.end();
  });
}
