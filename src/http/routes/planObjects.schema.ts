/**
 * Response schemas of the plans endpoints that the larger ones are built from: the timing, a
 * linked event, a note, a poll and its options (each described once in the domain), and body()
 * that wraps a response's fields with `ok: true` (their OpenAPI names are given in
 * plans.schema.ts).
 */
import type { JsonSchema } from '../../door/schema.js';
import {
  EVENT_ITEM,
  EVENT_TIMING,
  NOTE_SCHEMA,
  OPTION_SCHEMA,
  POLL_SCHEMA,
} from '../../domain/plans/views.js';

export const str = { type: 'string' };
export const strOrNull = { type: ['string', 'null'] };
export const ok = { const: true };

/** Described once with the view's type (src/domain/plans/views.ts). */
export const TIMING_SCHEMA: JsonSchema = EVENT_TIMING.schema;

/** Described once in the domain (src/domain/plans/views.ts, types.ts). */
export const EVENT_ITEM_SCHEMA: JsonSchema = EVENT_ITEM.schema;
export { NOTE_SCHEMA, OPTION_SCHEMA, POLL_SCHEMA };

export function body(
  required: string[],
  properties: Record<string, unknown>,
  example?: unknown,
): JsonSchema {
  return {
    type: 'object',
    required: ['ok', ...required],
    properties: { ok, ...properties },
    ...(example ? { examples: [example] } : {}),
  };
}
