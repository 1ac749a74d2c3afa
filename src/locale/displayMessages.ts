/**
 * Filling the display's messages in the browser. The words themselves are the `display`
 * section of the catalogs (src/domain/i18n/catalogs/), which the page delivers in the display's
 * locale with their `{name}` marks left for `fill` (src/domain/displays/text.ts).
 *
 * Pure and shared: compiled by the daemon's project and the browser's (ES2017, no Node types),
 * so it uses nothing either lacks.
 */

/** A message with its `{name}` marks filled in (a mark without a value stays as written). */
export function fill(template: string, values: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (mark, name: string) =>
    Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : mark,
  );
}
