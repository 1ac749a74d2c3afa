/**
 * The daemon's log (pino): JSON lines, or readable ones for a person at a terminal
 * (logFormat.ts), every line scrubbed of credentials as it is written.
 */
import {
  pino,
  destination as pinoDestination,
  stdTimeFunctions,
  type Logger,
  type DestinationStream,
} from 'pino';
import { prettyDestination, prettyWanted, type LogFormat } from './logFormat.js';

export type { LogFormat };

/**
 * Every credential shape the daemon hands out, as it could appear in any text: API keys
 * (`hk_<id>_<secret>`), OAuth codes, access and refresh tokens (`hoc_`, `hoa_`, `hor_`) and
 * client secrets (`hcs_`), calendar share, plan share and display tokens (`shr_`, `pln_`,
 * `dsp_`), stream tickets (`stk_`) and webhook signing secrets (`whsec_`). Matched from eight
 * characters on, so a truncated or mistyped credential — still mostly its secret — goes too.
 */
const CREDENTIAL =
  /(?<![0-9A-Za-z])(hk|hoc|hoa|hor|hcs|shr|pln|dsp|stk|whsec)_[0-9A-Za-z_+/=]{8,}/g;
/**
 * Pages whose path segment after the prefix is their credential, whatever it looks like:
 * shared plans, calendar share feeds, family displays and device pairing links (a segment
 * starting with `:` is a route template's parameter, as the request log names matched routes).
 */
const TOKEN_PAGE_PREFIXES = ['/p/', '/share/calendar/', '/display/', '/pair/'];
const TOKEN_PAGE = /(?<![\w.~%/-])\/(p|share\/calendar|display|pair)\/[^/?#"\s\\:][^/?#"\s\\]*/g;

/**
 * Cuts every credential out of a text: shapes become `<prefix>_[redacted]`, a token page's
 * token `:redacted`. Ids (`ent_…`, `plan_…`), slugs and words are left as they are.
 */
export function redactCredentials(text: string): string {
  // Most lines hold neither (a credential has a `_`, a token page its prefix): plain substring
  // scans decide, and the two patterns run only then.
  if (!text.includes('_') && !TOKEN_PAGE_PREFIXES.some((p) => text.includes(p))) return text;
  return text
    .replace(TOKEN_PAGE, (_m, page: string) => `/${page}/:redacted`)
    .replace(CREDENTIAL, (_m, prefix: string) => `${prefix}_[redacted]`);
}

/**
 * JSON logs, one object per line — or, for a person at a terminal, readable lines (`format`:
 * `json` always JSON, `pretty` always readable, `auto` readable only while stdout is a
 * terminal). Keys and tokens are never logged: the request log writes route templates and cut
 * paths (requestLog.ts), and — the last line of defence, whatever a log call is given (an
 * error message quoting a URL, a client's request id or user agent, a stack) — every line is
 * scrubbed of credential shapes as it is written, before it is made readable.
 */
export function createLogger(
  level: string,
  destination?: DestinationStream,
  format: LogFormat = 'json',
): Logger {
  const pretty = prettyWanted(format, process.stdout.isTTY === true);
  const out =
    destination ?? (pretty ? prettyDestination() : pinoDestination({ fd: 1, sync: false }));
  const write = out.write.bind(out);
  out.write = (line: string) => write(redactCredentials(line));
  return pino(
    {
      level,
      base: { service: 'household-organizer' },
      timestamp: stdTimeFunctions.isoTime,
      redact: { paths: ['req.headers["x-api-key"]', 'apiKey', 'token', 'secret'], remove: true },
    },
    out,
  );
}
