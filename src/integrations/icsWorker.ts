/**
 * Reads one feed body off the daemon's main thread: parse (ical.js) and convert to feed items.
 * A 10 MiB feed takes a second or two of CPU; here that second does not stall every request,
 * and a pathological feed can be stopped by terminating the worker.
 *
 * A scheduled refresh is background work: its thread lowers its own scheduling priority (nice 19,
 * Linux; elsewhere nothing happens), so on a busy machine it takes the CPU the daemon's requests
 * leave over instead of a core of its own (docs/performance.md, external calendars). Reading a feed
 * someone is waiting for (link, probe) keeps the normal priority.
 *
 * Given the stored fingerprints of the feed's events (a refresh), only new and changed items are
 * sent back, with the ids of the unchanged ones: copying 20,000 items into the main thread costs
 * it more than reading them took here.
 *
 * In: workerData `{body, zone, now (ISO), background, known?: {sourceId, fingerprints: {id:
 * fingerprint}}}`. Out: one message, `{ok: true, parsed}` or `{ok: false, message, parse:
 * boolean}`.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { feedItems } from '../domain/feeds/convert.js';
import { feedEventId } from '../domain/feeds/identity.js';
import type { FeedItem } from '../domain/feeds/types.js';
import { parseIcs, FeedParseError } from './icsParse.js';

const input = workerData as {
  body: string;
  zone: string;
  now: string;
  background: boolean;
  known?: { sourceId: string; fingerprints: Record<string, string> };
};
if (input.background) {
  try {
    // On Linux a thread is a task with its own id and nice value: /proc/thread-self names it.
    setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), 19);
  } catch {
    /* not Linux, or not allowed: run at the normal priority */
  }
}
try {
  const cal = parseIcs(input.body, { defaultZone: input.zone, now: new Date(input.now) });
  let items = feedItems(cal, input.zone);
  let unchanged: string[] | undefined;
  if (input.known) {
    const { sourceId, fingerprints } = input.known;
    const changed: FeedItem[] = [];
    unchanged = [];
    for (const item of items) {
      const id = feedEventId(sourceId, item.key);
      if (fingerprints[id] === item.fingerprint) unchanged.push(id);
      else changed.push({ ...item, id });
    }
    items = changed;
  }
  parentPort!.postMessage({
    ok: true,
    parsed: {
      calendarName: cal.calendarName,
      ttlMinutes: cal.ttlMinutes,
      eventCount: cal.eventCount,
      skipped: cal.skipped,
      items,
      ...(unchanged ? { unchanged } : {}),
    },
  });
} catch (e) {
  parentPort!.postMessage({
    ok: false,
    parse: e instanceof FeedParseError,
    message: (e as Error).message,
  });
}
