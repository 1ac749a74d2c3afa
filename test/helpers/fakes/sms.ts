/** An SMS gateway recorder on 127.0.0.1: takes `POST /` with JSON `{to, message}`. */
import { startLocalService, type LocalService } from '../../integrations/localService.js';

export interface SmsGateway {
  url: string;
  service: LocalService;
  sent: { to: string; message: string }[];
  status: number;
  close(): Promise<void>;
}

export async function startSmsGateway(): Promise<SmsGateway> {
  const rec = { sent: [] as { to: string; message: string }[], status: 202 };
  const service = await startLocalService((_req, res, body) => {
    const { to, message } = JSON.parse(body.toString('utf8')) as { to: string; message: string };
    if (rec.status < 300) rec.sent.push({ to, message });
    res.writeHead(rec.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ok: rec.status < 300 }));
  });
  return Object.assign(rec, {
    url: `${service.origin}/sms`,
    service,
    close: () => service.close(),
  });
}
