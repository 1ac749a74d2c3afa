/**
 * A real SMTP server (the smtp-server package) on 127.0.0.1:0 that keeps every message it
 * accepts: envelope, decoded subject and text. `rejectRecipients` makes it refuse chosen
 * addresses at RCPT TO, as a real server refuses an unknown mailbox.
 */
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { decodeWords } from './rfc2047.js';

export interface Mail {
  from: string;
  to: string[];
  subject: string;
  /** The text part (of a multipart message, its text/plain part). */
  text: string;
  /** The text/html part of a multipart message. */
  html?: string;
  /** Every header, names in lower case (folded lines unfolded). */
  headers: Record<string, string>;
  raw: string;
}

export interface SmtpFake {
  url: string;
  port: number;
  messages: Mail[];
  rejectRecipients: Set<string>;
  close(): Promise<void>;
}

function decodeBody(headers: string, body: string): string {
  const enc = /content-transfer-encoding:\s*([\w-]+)/i.exec(headers)?.[1]?.toLowerCase();
  if (enc === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (enc === 'quoted-printable') {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-Fa-f]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

function headerMap(headers: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of headers.split('\r\n')) {
    const i = line.indexOf(':');
    if (i > 0) out[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return out;
}

/** A part's headers and decoded body. */
function part(raw: string): { headers: string; body: string } {
  const split = raw.indexOf('\r\n\r\n');
  const headers = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  return { headers, body: decodeBody(headers, raw.slice(split + 4)).replace(/\r\n$/, '') };
}

/** The text and html of a message, single or multipart/alternative. */
function bodies(headers: string, raw: string): { text: string; html?: string } {
  const boundary = /content-type:\s*multipart\/[^;]+;.*boundary="?([^";\r\n]+)"?/i.exec(
    headers,
  )?.[1];
  if (!boundary) return { text: part(raw).body };
  const out: { text: string; html?: string } = { text: '' };
  for (const chunk of raw.split(`--${boundary}`).slice(1)) {
    if (chunk.startsWith('--')) break;
    const p = part(chunk.replace(/^\r\n/, ''));
    const type = /content-type:\s*([\w/-]+)/i.exec(p.headers)?.[1]?.toLowerCase();
    if (type === 'text/plain') out.text = p.body;
    if (type === 'text/html') out.html = p.body;
  }
  return out;
}

export async function startSmtp(): Promise<SmtpFake> {
  const messages: Mail[] = [];
  const rejectRecipients = new Set<string>();
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (rejectRecipients.has(address.address)) {
        const err = Object.assign(new Error(`550 No such mailbox: ${address.address}`), {
          responseCode: 550,
        });
        callback(err);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const split = raw.indexOf('\r\n\r\n');
        const headers = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
        const subject = decodeWords(/^subject:\s*(.*)$/im.exec(headers)?.[1] ?? '');
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          subject,
          ...bodies(headers, raw),
          headers: headerMap(headers),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    rejectRecipients,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
