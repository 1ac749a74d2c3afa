/**
 * The part of ical.js 1.x (no types of its own) that the external-calendar code uses: the
 * parser's jCal output (RFC 7265), recurrence rules and their iterator, durations and
 * VTIMEZONE offsets. Zone handling of ical.js itself is not used (docs/feeds.md says why).
 */
declare module 'ical.js' {
  namespace ICAL {
    /** `[name, properties, subcomponents]`. */
    type JCalComponent = [string, JCalProperty[], JCalComponent[]];
    /** `[name, parameters, valueType, ...values]`. */
    type JCalProperty = [string, Record<string, string | string[]>, string, ...unknown[]];

    interface TimeData {
      year?: number;
      month?: number;
      day?: number;
      hour?: number;
      minute?: number;
      second?: number;
      isDate?: boolean;
    }

    class Time {
      constructor(data?: TimeData, zone?: Timezone);
      year: number;
      month: number;
      day: number;
      hour: number;
      minute: number;
      second: number;
      isDate: boolean;
      toString(): string;
    }

    class Recur {
      static fromString(value: string): Recur;
      static fromData(data: Record<string, unknown>): Recur;
      freq: string;
      count: number | null;
      until: Time | null;
      parts: Record<string, unknown[]>;
      iterator(start: Time): RecurIterator;
      toString(): string;
    }

    class RecurIterator {
      next(): Time | null;
    }

    class Duration {
      static fromString(value: string): Duration;
      toSeconds(): number;
    }

    class Component {
      constructor(jcal: JCalComponent);
      toString(): string;
    }

    class Property {
      constructor(jcal: JCalProperty);
      toICALString(): string;
    }

    class Timezone {
      constructor(data: Component | { component: Component; tzid?: string });
      utcOffset(time: Time): number;
    }

    function parse(input: string): JCalComponent | JCalComponent[];
  }
  export default ICAL;
}
