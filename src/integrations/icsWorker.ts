/**
 * Reads one feed body off the daemon's main thread: parse (ical.js) and convert to feed items.
 * A 10 MiB feed takes a second or two of CPU; here that second does not stall every request,
 * and a pathological feed can be stopped by terminating the worker.
 *
 * In: workerData `{body: string, zone: string, now: ISO string}`.
 * Out: one message, `{ok: true, parsed: ParsedFeed}` or `{ok: false, message, parse: boolean}`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { feedItems } from '../domain/feeds/convert.js';
import { parseIcs, FeedParseError } from './icsParse.js';

const input = workerData as { body: string; zone: string; now: string };
try {
  const cal = parseIcs(input.body, { defaultZone: input.zone, now: new Date(input.now) });
  const items = feedItems(cal, input.zone);
  parentPort!.postMessage({
    ok: true,
    parsed: { calendarName: cal.calendarName, ttlMinutes: cal.ttlMinutes, eventCount: cal.eventCount, skipped: cal.skipped, items },
  });
} catch (e) {
  parentPort!.postMessage({ ok: false, parse: e instanceof FeedParseError, message: (e as Error).message });
}
