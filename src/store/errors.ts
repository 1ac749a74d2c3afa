/**
 * The store's own errors, apart from its implementation, so that whoever answers them (the door
 * core's error table) needs neither LMDB nor the Store.
 */

/**
 * A write the store could not make. `full`: the disk (or the LMDB map) has no room — the
 * daemon answers 507 and keeps serving reads; `failed`: any other I/O failure — 503.
 */
export class StoreWriteError extends Error {
  constructor(
    readonly kind: 'full' | 'failed',
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}

/** The store on disk is newer than this program understands. */
export class StoreVersionError extends Error {}
