/**
 * A family display's own stream, `/display/<token>/events` (docs/display.md): never change-log
 * records (they carry people's emails and phones) but the display's whole content, sent as
 * `event: display` whenever it differs from what the page last got — after a change to the
 * family (bursts gathered for a moment), when the weather arrives, and across midnight (the
 * content is looked at again on every heartbeat). A display that is deleted gets
 * `event: gone` and the stream ends.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FamilyInfo } from '../domain/shared/state.js';
import type { DisplayContent } from '../domain/displays/view.js';
import type { DisplayText } from '../domain/displays/text.js';
import type { FollowedLog } from '../family/followedLog.js';
import { SSE_HEADERS } from '../door/sse.js';

/** What a display shows: its content, and the words and locale to show it in. */
export interface Shown {
  content: DisplayContent;
  text: DisplayText;
}

/** What the display shows now, or null when it is gone. */
export type ContentSource = () => Promise<Shown | null>;

/** How long a burst of changes is gathered before the content is computed again. */
const GATHER_MS = 150;
/** Open streams per display link: a few screens share one link at most. */
export const PER_DISPLAY = 20;

interface Open {
  res: ServerResponse;
  stop: AbortController;
  displayId: string;
}

export class DisplayStreams {
  private readonly open = new Set<Open>();
  private closing = false;

  constructor(
    private readonly deps: {
      log: FollowedLog;
      heartbeatMs: number;
      onOpen?: () => void;
      onClose?: () => void;
    },
  ) {}

  /** Refuses (false) past the per-display limit or while the daemon stops. */
  accepts(displayId: string): boolean {
    if (this.closing) return false;
    let n = 0;
    for (const o of this.open) if (o.displayId === displayId) n++;
    return n < PER_DISPLAY;
  }

  start(
    req: IncomingMessage,
    res: ServerResponse,
    family: FamilyInfo,
    displayId: string,
    first: Shown,
    source: ContentSource,
  ): void {
    const o: Open = { res, stop: new AbortController(), displayId };
    if (this.closing) {
      // The content was computed while the daemon began to stop: its store may be closed.
      res.writeHead(503, { 'Retry-After': '10' }).end();
      return;
    }
    this.open.add(o);
    this.deps.onOpen?.();
    res.once('close', () => {
      o.stop.abort();
      this.open.delete(o);
      this.deps.onClose?.();
    });
    req.socket.setNoDelay(true);
    res.writeHead(200, SSE_HEADERS);
    // A store closed under a stream (the daemon stopping) ends it; it never escapes as an
    // unhandled rejection that would take the process down.
    this.follow(o, family, first, source).catch(() => {
      o.stop.abort();
      if (!o.res.writableEnded) o.res.end();
    });
  }

  close(): void {
    this.closing = true;
    for (const o of this.open) {
      o.stop.abort();
      o.res.end();
    }
    this.open.clear();
  }

  private async follow(
    o: Open,
    family: FamilyInfo,
    first: Shown,
    source: ContentSource,
  ): Promise<void> {
    // `retry`: how long a page whose connection dropped waits before its browser reconnects.
    // The words first: a page reconnecting after the locale changed draws the content in them.
    let words = JSON.stringify(first.text);
    let sent = JSON.stringify(first.content);
    o.res.write(`retry: 1000\nevent: text\ndata: ${words}\n\nevent: display\ndata: ${sent}\n\n`);
    let seen = this.deps.log.head(family.id);
    while (!o.stop.signal.aborted) {
      const wake = new AbortController();
      const onStop = () => wake.abort();
      o.stop.signal.addEventListener('abort', onStop, { once: true });
      const timer = setTimeout(() => wake.abort(), this.deps.heartbeatMs);
      const head = await this.deps.log.next(family.id, seen, wake.signal);
      clearTimeout(timer);
      o.stop.signal.removeEventListener('abort', onStop);
      if (o.stop.signal.aborted) return;
      const changed = head > seen;
      if (changed) {
        seen = head;
        await new Promise((r) => setTimeout(r, GATHER_MS));
        seen = Math.max(seen, this.deps.log.head(family.id));
      }
      let shown: Shown | null;
      try {
        shown = await source();
      } catch {
        continue;
      }
      if (o.stop.signal.aborted) return;
      if (!shown) {
        o.res.end('event: gone\ndata: {}\n\n');
        return;
      }
      // A new locale (the family's or the display's own): its words, then the content in them.
      const nextWords = JSON.stringify(shown.text);
      if (nextWords !== words) {
        words = nextWords;
        o.res.write(`event: text\ndata: ${words}\n\n`);
      }
      const text = JSON.stringify(shown.content);
      if (text !== sent) {
        sent = text;
        o.res.write(`event: display\ndata: ${text}\n\n`);
      } else if (!changed) {
        o.res.write(': keep-alive\n\n');
      }
    }
  }
}
