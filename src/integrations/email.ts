/**
 * Email over SMTP with nodemailer (README.md: `email.smtpUrl`, `smtp://` or `smtps://`,
 * sender `email.from`): one message per recipient, subject = the notification's title.
 *
 * nodemailer opens its own socket, not the egress client's HTTP agents, so the same address
 * rule is applied here through its `getSocket` hook: the socket is opened by us, a host name
 * is resolved by the guard's lookup (only answers the `egress.transports` policy allows are
 * connected to, the one lookup that is used), an IP literal is checked as it is, and the
 * connected socket is handed to nodemailer (which still does STARTTLS or, for smtps, TLS on
 * it). Every stage has a timeout.
 */
import * as net from 'node:net';
import nodemailer from 'nodemailer';
import type { SMTPTransportOptions } from 'nodemailer/lib/smtp-transport';
import { allowed, type EgressPolicy } from './addresses.js';
import { EgressError } from './egressError.js';
import { guardedLookup } from './guard.js';
import { TRANSPORT_TIMEOUT_MS } from './push.js';

/** One message: its subject and text, an HTML part beside, and its language (a BCP 47 tag). */
export interface EmailMessage {
  subject: string;
  text: string;
  html?: string;
  /** The `Content-Language` header. */
  language?: string;
}

export interface EmailOptions {
  smtpUrl: string;
  from: string;
  policy: EgressPolicy;
  timeoutMs?: number;
  /** Resolver for host names (tests inject one; the system's otherwise). */
  lookup?: net.LookupFunction;
}

/** Opens a TCP connection to host:port only if the policy allows the address it reaches. */
export function connectGuarded(
  host: string,
  port: number,
  policy: EgressPolicy,
  timeoutMs: number,
  lookup?: net.LookupFunction,
): Promise<net.Socket> {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  return new Promise((resolve, reject) => {
    if (net.isIP(bare) && !allowed(policy, bare)) {
      reject(
        new EgressError(
          'refused_address',
          `egress refused: ${bare} is not allowed by the "${policy}" policy`,
          { host: bare },
        ),
      );
      return;
    }
    const socket = net.connect({
      host: bare,
      port,
      ...(net.isIP(bare) ? {} : { lookup: guardedLookup({ policy, lookup }, port) }),
    });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new EgressError(
          'timeout',
          `egress: ${bare}:${port} did not accept a connection within ${timeoutMs} ms`,
          { host: bare },
        ),
      );
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.removeAllListeners('error');
      resolve(socket);
    });
    socket.once('error', (err) => {
      clearTimeout(timer);
      reject(
        err instanceof EgressError
          ? err
          : new EgressError('network', `egress: ${bare}:${port}: ${err.message}`, {
              host: bare,
              cause: err,
            }),
      );
    });
  });
}

export function createEmail(opts: EmailOptions) {
  const timeout = opts.timeoutMs ?? TRANSPORT_TIMEOUT_MS;
  const options: SMTPTransportOptions = {
    url: opts.smtpUrl,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
    dnsTimeout: timeout,
    getSocket: (options, callback) => {
      const secure = options.secure === true;
      const host = String(options.host ?? 'localhost');
      const port = Number(options.port) || (secure ? 465 : 587);
      connectGuarded(host, port, opts.policy, timeout, opts.lookup).then(
        (connection) => callback(null, { connection }),
        (err: Error) => callback(err),
      );
    },
  };
  const transport = nodemailer.createTransport(options);
  return {
    /** Sends one message to one address; rejects with the SMTP server's or the network's reason. */
    async send(to: string, message: EmailMessage): Promise<void> {
      await transport.sendMail({
        from: opts.from,
        to,
        subject: message.subject.replace(/[\r\n]+/g, ' '),
        text: message.text,
        ...(message.html !== undefined ? { html: message.html } : {}),
        ...(message.language ? { headers: { 'Content-Language': message.language } } : {}),
      });
    },
    close(): void {
      transport.close();
    },
  };
}
