/**
 * A page's refusal: the status and a sentence for the person at the browser, shown as a page
 * (never JSON, never a stack). A refusal the pages make themselves names its catalog message
 * (`pages` section), said in the reader's voice when the page is written; a refusal of the REST
 * API carries the API's own (English, for developers) sentence, shown after a translated one.
 */
import type { KeyOf, Values } from '../domain/i18n/messages.js';

export class PageError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Seconds to wait (429), sent as Retry-After. */
    readonly retryAfter?: number,
    /** The catalog message to show instead of `message`. */
    readonly said?: { key: KeyOf<'pages'>; values?: Values },
  ) {
    super(message);
  }
}

/** A refusal of the pages' own, in the reader's language. */
export function pageError(status: number, key: KeyOf<'pages'>, values?: Values): PageError {
  return new PageError(status, key, undefined, { key, ...(values ? { values } : {}) });
}
