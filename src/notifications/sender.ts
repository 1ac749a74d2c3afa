/**
 * The notifier: calls the transports for a notification's pending deliveries, after the record
 * is durable, and records what they answered (the three steps of domain/notifications/
 * delivery.ts: claim, send, settle). One notifier per daemon: the API's sends, the scheduler's
 * firings and the `notify.send` jobs left by a crash all go through it, and a notification
 * being sent is never handed to the transports a second time meanwhile (a second caller waits
 * for the first one's outcome).
 */
import { setMaxListeners } from 'node:events';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { FamilyActor } from '../family/actor.js';
import { SCHEDULER_CALLER } from '../domain/shared/agenda.js';
import type { Caller, Command } from '../domain/shared/state.js';
import { decideClaim, decideSettle, type Outcome } from '../domain/notifications/delivery.js';
import type { Delivery, NotificationRecord, Transports } from '../domain/notifications/types.js';
import type { Egress } from '../integrations/egress.js';
import { createEmail } from '../integrations/email.js';
import { DEFAULT_LOCALE } from '../domain/i18n/locale.js';
import { emailOf, type Words } from './emailText.js';
import { createPush } from '../integrations/push.js';
import { createSms } from '../integrations/sms.js';

export interface NotifierDeps {
  config: Config;
  egress: Egress;
  logger: Logger;
}

export interface DeliverOptions {
  /** Who the claim and settle commands are made by (the API caller, else the scheduler). */
  ref?: Caller;
  /** The send job was found later than catchUpMinutes: suppress instead of sending. */
  missed?: boolean;
  /** Runs the settling command (the API route runs it through its idempotent handle). */
  settle?: (command: Command<NotificationRecord | null>) => Promise<NotificationRecord | null>;
}

/** What one delivery says, and in which locale: the person's own text, else the record's. */
function wordsOf(n: NotificationRecord, d: Delivery): Words {
  const own = d.locale ? n.localized?.[d.locale] : undefined;
  if (own && d.locale) return { ...own, locale: d.locale };
  return { title: n.title, body: n.body, locale: n.locale ?? DEFAULT_LOCALE };
}

/** The longest reason kept on a failed delivery. */
const REASON_MAX = 300;

export class Notifier {
  private readonly inFlight = new Map<string, Promise<NotificationRecord | null>>();
  private readonly stopping = new AbortController();
  private email: ReturnType<typeof createEmail> | null = null;
  private readonly push: ReturnType<typeof createPush> | null;
  private readonly sms: ReturnType<typeof createSms> | null;

  constructor(private readonly deps: NotifierDeps) {
    // Every transport call listens on this one signal (cancelled at shutdown).
    setMaxListeners(0, this.stopping.signal);
    const { config, egress } = deps;
    const policy = config.egress.transports;
    this.push = config.push.ntfyUrl
      ? createPush({ egress, url: config.push.ntfyUrl, policy })
      : null;
    this.sms = config.sms.gatewayUrl
      ? createSms({ egress, url: config.sms.gatewayUrl, policy })
      : null;
  }

  /** Which channels have a transport (a channel without one is suppressed as "not configured"). */
  get transports(): Transports {
    const c = this.deps.config;
    return {
      email: c.email.smtpUrl !== null,
      push: c.push.ntfyUrl !== null,
      sms: c.sms.gatewayUrl !== null,
    };
  }

  /**
   * Sends what is pending on notification `id` of the actor's family and resolves with the
   * settled record (null when it is gone). A call for a notification already being sent joins
   * that send.
   */
  deliver(
    actor: FamilyActor,
    id: string,
    opts: DeliverOptions = {},
  ): Promise<NotificationRecord | null> {
    const key = `${actor.family.id}\u0000${id}`;
    const running = this.inFlight.get(key);
    if (running) return running;
    const p = this.run(actor, id, opts).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, p);
    return p;
  }

  private async run(
    actor: FamilyActor,
    id: string,
    opts: DeliverOptions,
  ): Promise<NotificationRecord | null> {
    const ref = opts.ref ?? SCHEDULER_CALLER;
    // 1. claim (durable before any transport is called)
    const claim = await actor.execute((s) => decideClaim(s, id, opts.missed === true), ref);
    if (!claim) return null;
    if (!claim.toSend.length) return claim.record;
    // 2. send, outside any command
    const record = claim.record;
    const outcomes: Outcome[] = await Promise.all(
      claim.toSend.map(async (index): Promise<Outcome> => {
        try {
          await this.sendOne(record, record.deliveries[index]);
          return { index, ok: true };
        } catch (err) {
          const reason = (err instanceof Error ? err.message : String(err))
            .replace(/\s+/g, ' ')
            .slice(0, REASON_MAX);
          this.deps.logger.warn(
            {
              family: actor.family.slug,
              notification: id,
              channel: record.deliveries[index].channel,
              reason,
            },
            'a notification could not be sent',
          );
          return { index, ok: false, reason };
        }
      }),
    );
    // 3. settle
    const settle: Command<NotificationRecord | null> = (s) => decideSettle(s, id, outcomes);
    return opts.settle ? opts.settle(settle) : actor.execute(settle, ref);
  }

  private async sendOne(record: NotificationRecord, d: Delivery): Promise<void> {
    const signal = this.stopping.signal;
    if (signal.aborted) throw new Error('the daemon is stopping');
    const n = wordsOf(record, d);
    switch (d.channel) {
      case 'email': {
        const url = this.deps.config.email.smtpUrl;
        if (!url) throw new Error('not configured');
        this.email ??= createEmail({
          smtpUrl: url,
          from: this.deps.config.email.from,
          policy: this.deps.config.egress.transports,
        });
        await this.email.send(d.recipient!, emailOf(n));
        return;
      }
      case 'push':
        if (!this.push) throw new Error('not configured');
        await this.push.publish({ title: n.title, body: n.body }, signal);
        return;
      case 'sms':
        if (!this.sms) throw new Error('not configured');
        await this.sms.send(d.recipient!, n.body ? `${n.title}\n${n.body}` : n.title, signal);
        return;
      case 'in_app':
        return;
      default: {
        const never: never = d.channel;
        throw new Error(`unknown channel ${String(never)}`);
      }
    }
  }

  /** How many notifications are being sent right now. */
  get busy(): number {
    return this.inFlight.size;
  }

  /**
   * Lets the sends in flight finish (their outcomes are recorded), cancelling those still
   * running after `graceMs`; what they leave pending is sent at the next start.
   */
  async close(graceMs = 4_000): Promise<void> {
    const all = Promise.allSettled(this.inFlight.values());
    const timer = setTimeout(() => this.stopping.abort(), graceMs);
    timer.unref();
    await all;
    clearTimeout(timer);
    this.stopping.abort();
    this.email?.close();
  }
}
