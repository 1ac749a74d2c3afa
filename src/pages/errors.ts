/**
 * A page's refusal: the status and a sentence for the person at the browser, shown as a page
 * (never JSON, never a stack).
 */
export class PageError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Seconds to wait (429), sent as Retry-After. */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}
