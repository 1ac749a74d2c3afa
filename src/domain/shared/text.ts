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
