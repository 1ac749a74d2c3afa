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

/**
 * Every string, number and boolean inside a JSON value, in order, as text (for searching).
 * With `trim`, strings are trimmed and blank ones left out.
 */
export function collectText(value: unknown, out: string[], trim = false): void {
  if (typeof value === 'string') {
    const v = trim ? value.trim() : value;
    if (!trim || v) out.push(v);
  } else if (typeof value === 'number' || typeof value === 'boolean') out.push(String(value));
  else if (Array.isArray(value)) for (const v of value) collectText(v, out, trim);
  else if (value && typeof value === 'object')
    for (const v of Object.values(value)) collectText(v, out, trim);
}
