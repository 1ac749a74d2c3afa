/**
 * The k-way merge of the event listing (listing.ts): each series' occurrences come in key
 * order, and the heap hands out the least of all of them, one at a time.
 */
import { compare, type Item } from './listingItems.js';

export class Heap {
  private a: { it: Item; src: Iterator<Item> }[] = [];
  get size(): number {
    return this.a.length;
  }
  push(src: Iterator<Item>): void {
    const n = src.next();
    if (n.done) return;
    const a = this.a;
    a.push({ it: n.value, src });
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (compare(a[p].it.key, a[i].it.key) <= 0) break;
      [a[p], a[i]] = [a[i], a[p]];
      i = p;
    }
  }
  pop(): Item {
    const a = this.a;
    const top = a[0];
    const last = a.pop()!;
    if (a.length) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && compare(a[l].it.key, a[m].it.key) < 0) m = l;
        if (r < a.length && compare(a[r].it.key, a[m].it.key) < 0) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i], a[m]];
        i = m;
      }
    }
    this.push(top.src);
    return top.it;
  }
}

export function* arrayFrom<T>(list: readonly T[], start: number): Generator<T> {
  for (let i = start; i < list.length; i++) yield list[i];
}
