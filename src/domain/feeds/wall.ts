/**
 * Wall-clock times of feeds: `YYYY-MM-DDTHH:mm:ss` in a named zone, turned into instants and
 * into the family's local dates and times. Feeds keep seconds, the calendar shows minutes.
 * Pure; zone math through the shared Intl helpers (the runtime's tz database).
 */
import { fromDayNumber, instantToLocal, offsetSecondsAt, toDayNumber } from '../shared/time.js';

const WALL_RE = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})$/;

export interface Wall {
  date: string;
  /** Seconds since local midnight. */
  seconds: number;
}

export function parseWall(s: string): Wall {
  const m = WALL_RE.exec(s);
  if (!m) throw new RangeError(`not a wall-clock time: ${JSON.stringify(s)}`);
  return { date: m[1]!, seconds: Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4]) };
}

export function formatWall(date: string, seconds: number): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${date}T${p(Math.floor(seconds / 3600))}:${p(Math.floor((seconds % 3600) / 60))}:${p(seconds % 60)}`;
}

function offsetAt(sec: number, tz: string): number {
  return offsetSecondsAt(new Date(sec * 1000), tz);
}

/**
 * The instant (ms) at which the wall clock in `tz` shows `date` + `seconds`. A time skipped by a
 * DST gap is read with the offset before the gap; a repeated time takes the earlier instant
 * (RFC 5545 §3.3.5, and what the calendar's own localToInstant does).
 */
export function wallToMs(date: string, seconds: number, tz: string): number {
  const wall = toDayNumber(date) * 86_400 + seconds;
  const before = offsetAt(wall - 86_400, tz);
  const after = offsetAt(wall + 86_400, tz);
  if (before === after) return (wall - before) * 1000;
  if (offsetAt(wall - before, tz) === before) return (wall - before) * 1000;
  if (offsetAt(wall - after, tz) === after) return (wall - after) * 1000;
  return (wall - before) * 1000;
}

/** The wall clock in `tz` at instant `ms`, with seconds. */
export function msToWall(ms: number, tz: string): Wall {
  const sec = Math.floor(ms / 1000);
  const wall = sec + offsetAt(sec, tz);
  const day = Math.floor(wall / 86_400);
  return { date: fromDayNumber(day), seconds: wall - day * 86_400 };
}

/** Local date and `HH:mm` in `zone` at instant `ms`. */
export function msToLocal(ms: number, zone: string): { date: string; time: string } {
  return instantToLocal(new Date(ms), zone);
}
