/**
 * Waits for the state a test asserts: polls `probe` until it returns something other than
 * `undefined` or `false`, and fails naming `what` when the deadline passes first. The deadline
 * is generous on purpose — a loaded two-core machine is slow, never wrong — so a test waits as
 * long as the state takes to arrive and no longer; it never sleeps a guessed time instead.
 */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 10_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const got = await probe();
    if (got !== undefined && got !== false) return got;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
