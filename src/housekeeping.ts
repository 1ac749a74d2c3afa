/**
 * The daemon's housekeeping (server.ts, step 5): expired idempotency records and expired OAuth
 * codes, tokens and unused registrations, removed in the background until `stop`; ended
 * browser sessions and sign-in links revoked.
 */
import type { Logger } from 'pino';
import type { IdempotencyRecords } from './store/ports.js';
import type { OAuthAuthority } from './oauth/authority.js';

export function startHousekeeping(
  store: Pick<IdempotencyRecords, 'sweepIdempotency'>,
  authority: OAuthAuthority,
  now: () => Date,
  logger: Logger,
  /** Ended browser sessions and sign-in links, revoked (src/family/access.ts). */
  access?: { sweep(now: Date): Promise<number> },
): { stop(): void } {
  // Expired idempotency records, in bounded passes that follow each other while there is more
  // to remove, then once a minute.
  let sweep: NodeJS.Timeout;
  const sweepPass = (): void => {
    store.sweepIdempotency(now().getTime(), 500).then(
      (removed) => {
        sweep = setTimeout(sweepPass, removed === 500 ? 50 : 60_000);
        sweep.unref();
      },
      (err) => {
        logger.warn({ err }, 'idempotency sweep failed');
        sweep = setTimeout(sweepPass, 60_000);
        sweep.unref();
      },
    );
  };
  sweep = setTimeout(sweepPass, 1_000);
  sweep.unref();
  // Expired OAuth codes and tokens, and registrations never used, every ten minutes.
  const oauthSweep = setInterval(() => {
    authority.sweep().catch((err: unknown) => logger.warn({ err }, 'OAuth sweep failed'));
    access?.sweep(now()).catch((err: unknown) => logger.warn({ err }, 'session sweep failed'));
  }, 600_000);
  oauthSweep.unref();
  return {
    stop() {
      clearTimeout(sweep);
      clearInterval(oauthSweep);
    },
  };
}
