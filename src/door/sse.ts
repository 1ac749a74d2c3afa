/**
 * The headers of every server-sent event stream the doors answer (the live change stream, the
 * family display's stream).
 */
export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store',
  // Reverse proxies (nginx) must pass each event on at once rather than buffer the answer.
  'x-accel-buffering': 'no',
};
