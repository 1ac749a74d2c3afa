/**
 * The weather a family display shows, kept by the daemon (docs/display.md): one forecast per
 * family location and date, fetched through the weather integration and the egress guard, kept
 * `display.weatherMinutes`. A display never waits long for it: a stale forecast is shown while
 * a new one is fetched, and a page without one yet shows its days without weather.
 */
import type { Config } from '../config.js';
import type { DisplayWeather } from '../domain/displays/view.js';

type Day = DisplayWeather['days'] extends Map<string, infer D> ? D : never;
import type { FamilyInfo } from '../domain/shared/state.js';
import type { Egress } from '../integrations/egress.js';
import { weatherFor } from '../notifications/weather.js';

interface Kept {
  at: number;
  place: string;
  day: Day | null;
}

/** Places × dates kept at most; a household has one location, this only bounds a busy daemon. */
const MAX_KEPT = 2_000;

export class DisplayWeatherCache {
  private readonly kept = new Map<string, Kept>();
  private readonly fetching = new Map<string, Promise<void>>();

  constructor(private readonly deps: { egress: Egress; config: Config; now: () => Date }) {}

  /**
   * The forecast for the family's location on `dates`, or null without a location. Dates not
   * kept (or kept too long) are fetched; this waits for them at most `waitMs`.
   */
  async forecast(
    family: FamilyInfo,
    dates: string[],
    waitMs: number,
  ): Promise<DisplayWeather | null> {
    const location = family.location?.trim();
    if (!location) return null;
    const ttl = this.deps.config.display.weatherMinutes * 60_000;
    const now = this.deps.now().getTime();
    const stale = dates.filter((d) => {
      const k = this.kept.get(keyOf(location, family.timezone, d));
      return !k || now - k.at >= ttl;
    });
    if (stale.length) {
      const pending = Promise.all(stale.map((d) => this.fetch(location, family.timezone, d)));
      await Promise.race([pending, new Promise((r) => setTimeout(r, waitMs).unref())]);
    }
    const days = new Map<string, Day>();
    let place = location;
    for (const d of dates) {
      const k = this.kept.get(keyOf(location, family.timezone, d));
      if (!k) continue;
      place = k.place;
      if (k.day) days.set(d, k.day);
    }
    return { place, days };
  }

  private fetch(location: string, tz: string, date: string): Promise<void> {
    const key = keyOf(location, tz, date);
    const running = this.fetching.get(key);
    if (running) return running;
    const p = weatherFor(this.deps.egress, this.deps.config, location, date, tz)
      .then((note) => {
        if (this.kept.size >= MAX_KEPT) this.kept.clear();
        // A failed lookup is kept too (as no forecast), so an unreachable service is asked again
        // only after the same interval, not on every page view.
        this.kept.set(key, {
          at: this.deps.now().getTime(),
          place: note.place,
          day: note.error
            ? null
            : {
                date,
                summary: note.summary ?? null,
                // Worded in each display's own locale when its content is made (view.ts).
                ...(note.condition ? { condition: note.condition } : {}),
                minC: note.minC ?? null,
                maxC: note.maxC ?? null,
                precipitationProbability: note.precipitationProbability ?? null,
              },
        });
      })
      .finally(() => {
        this.fetching.delete(key);
      });
    this.fetching.set(key, p);
    return p;
  }
}

function keyOf(location: string, tz: string, date: string): string {
  return `${location.toLowerCase()}\n${tz}\n${date}`;
}
