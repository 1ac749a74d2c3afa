/**
 * The JSON Schema of what a family display shows: its page's JSON form and its stream's
 * `display` events. Described once with its type, in src/domain/displays/content.ts.
 */
import { named, type JsonSchema } from '../../door/schema.js';
import { DISPLAY_CONTENT } from '../../domain/displays/content.js';

/** What a display shows, as its page's JSON form and its stream's `display` events carry it. */
export const DISPLAY_CONTENT_SCHEMA: JsonSchema = named('DisplayContent', DISPLAY_CONTENT.schema);
