/**
 * An ntfy recorder on 127.0.0.1: takes publishes (`POST /<topic>`, body = message, `Title`
 * header, RFC 2047 decoded as ntfy does) and answers like ntfy, or with a chosen status, late,
 * or never (to stand for a transport that hangs while the daemon is killed).
 */
import { startLocalService, type LocalService } from '../../integrations/localService.js';
import { decodeWords } from './rfc2047.js';

export interface Publish {
  topic: string;
  title: string | undefined;
  rawTitle: string | undefined;
  message: string;
  at: number;
}

export interface NtfyRecorder {
  url: string;
  service: LocalService;
  published: Publish[];
  /** Answer this status from now on (default 200). */
  status: number;
  /** Answer this many ms late; Infinity never answers. */
  delayMs: number;
  close(): Promise<void>;
}

export async function startNtfy(topic = 'household'): Promise<NtfyRecorder> {
  const rec = { published: [] as Publish[], status: 200, delayMs: 0 };
  const service = await startLocalService((req, res, body) => {
    const raw = req.headers.title as string | undefined;
    rec.published.push({
      topic: (req.url ?? '').slice(1),
      title: raw === undefined ? undefined : decodeWords(raw),
      rawTitle: raw,
      message: body.toString('utf8'),
      at: Date.now(),
    });
    const answer = () => {
      res.writeHead(rec.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: `m${rec.published.length}`, event: 'message', topic }));
    };
    if (rec.delayMs === Infinity) return;
    if (rec.delayMs > 0) setTimeout(answer, rec.delayMs);
    else answer();
  });
  return Object.assign(rec, {
    url: `${service.origin}/${topic}`,
    service,
    close: () => service.close(),
  });
}
