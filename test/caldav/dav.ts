/**
 * A small CalDAV client for the door's own tests: real HTTP with Basic auth, iCalendar bodies
 * built line by line (CRLF), and the few reads of a multistatus the tests assert on.
 */
import type { TestServer } from '../helpers/server.js';

export interface DavReply {
  status: number;
  headers: Headers;
  text: string;
}

export class Dav {
  constructor(
    readonly server: TestServer,
    readonly slug: string,
    readonly key: string,
  ) {}

  get auth(): string {
    return 'Basic ' + Buffer.from(`${this.slug}:${this.key}`).toString('base64');
  }

  async request(
    method: string,
    path: string,
    body?: string | Buffer,
    headers: Record<string, string> = {},
  ): Promise<DavReply> {
    const res = await fetch(this.server.url + path, {
      method,
      redirect: 'manual',
      headers: {
        authorization: this.auth,
        ...(body !== undefined && !headers['content-type']
          ? { 'content-type': 'application/xml; charset=utf-8' }
          : {}),
        ...headers,
      },
      ...(body !== undefined ? { body } : {}),
    });
    return { status: res.status, headers: res.headers, text: await res.text() };
  }

  put(path: string, ics: string, headers: Record<string, string> = {}): Promise<DavReply> {
    return this.request('PUT', path, ics, {
      'content-type': 'text/calendar; charset=utf-8',
      ...headers,
    });
  }

  propfind(path: string, props: string, depth = '0'): Promise<DavReply> {
    return this.request(
      'PROPFIND',
      path,
      `<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/" xmlns:ic="http://apple.com/ns/ical/"><d:prop>${props}</d:prop></d:propfind>`,
      { depth },
    );
  }

  report(path: string, xml: string): Promise<DavReply> {
    return this.request('REPORT', path, `<?xml version="1.0" encoding="utf-8"?>${xml}`, {
      depth: '1',
    });
  }

  /** calendar-query with an optional time-range and expand, answering getetag and calendar-data. */
  query(
    path: string,
    comp: string,
    range?: [string, string],
    expand?: [string, string],
  ): Promise<DavReply> {
    const tr = range ? `<c:time-range start="${range[0]}" end="${range[1]}"/>` : '';
    const ex = expand ? `<c:expand start="${expand[0]}" end="${expand[1]}"/>` : '';
    return this.report(
      path,
      `<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data>${ex}</c:calendar-data></d:prop><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="${comp}">${tr}</c:comp-filter></c:comp-filter></c:filter></c:calendar-query>`,
    );
  }

  sync(path: string, token = ''): Promise<DavReply> {
    return this.report(
      path,
      `<d:sync-collection xmlns:d="DAV:"><d:sync-token>${token}</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>`,
    );
  }
}

/** An iCalendar body from content lines (CRLF, trailing CRLF). */
export function ics(...lines: string[]): string {
  return ['BEGIN:VCALENDAR', 'VERSION:2.0', ...lines, 'END:VCALENDAR', ''].join('\r\n');
}

/** The hrefs of a multistatus, in order. */
export function hrefs(xml: string): string[] {
  return [...xml.matchAll(/<d:response><d:href>([^<]*)<\/d:href>/g)].map((m) => m[1]);
}

/** The calendar-data texts of a multistatus, unescaped. */
export function calendarData(xml: string): string[] {
  return [...xml.matchAll(/<c:calendar-data>([^<]*)<\/c:calendar-data>/g)].map((m) =>
    m[1]
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&'),
  );
}

export function syncToken(xml: string): string {
  return /<d:sync-token>([^<]*)<\/d:sync-token>/.exec(xml)?.[1] ?? '';
}

/** The unfolded content lines of an iCalendar text. */
export function lines(text: string): string[] {
  return text
    .replace(/\r\n[ \t]/g, '')
    .split('\r\n')
    .filter(Boolean);
}
