/**
 * Text lengths are counted in Unicode code points, as JSON Schema's `maxLength` counts them
 * (the published OpenAPI document states the limits that way): an emoji is one character,
 * not the two UTF-16 units JavaScript's `length` gives it.
 */
const surrogate = /[\uD800-\uDFFF]/;

export function charCount(text: string): number {
  if (!surrogate.test(text)) return text.length;
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** Stable JSON for comparing stored values: object keys sorted, so key order never counts. */
export function canonicalJson(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(
          Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)),
        )
      : x,
  );
}
