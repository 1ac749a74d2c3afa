/** A clock tests can set and move; the daemon reads it through `now`. */
export class FakeClock {
  private t: number;
  constructor(start: string | Date = '2026-11-22T08:30:00.000Z') {
    this.t = new Date(start).getTime();
  }
  now = (): Date => new Date(this.t);
  set(at: string | Date): void {
    this.t = new Date(at).getTime();
  }
  advance(ms: number): void {
    this.t += ms;
  }
}
