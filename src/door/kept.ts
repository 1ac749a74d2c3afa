/**
 * What the door core keeps of the requests clients repeat — a path's door, a method and path's
 * route match, a query string's validated query: made once per key, bounded. Past `max` keys it
 * starts over, so keys a client invents (ids, tokens in paths) cost what no memo would and never
 * grow memory. In memory only.
 */
export function keptBy<V>(max: number): (key: string, make: () => V) => V {
  const kept = new Map<string, V>();
  return (key, make) => {
    if (kept.has(key)) return kept.get(key) as V;
    const value = make();
    if (kept.size >= max) kept.clear();
    kept.set(key, value);
    return value;
  };
}
