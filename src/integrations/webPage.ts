/**
 * The readable text of a public web page (docs/egress.md). The URL comes from the API caller, so
 * it is fetched under `egress.webPages` (default `public`: no loopback, private, link-local or
 * metadata address, on the first hop, on every redirect hop and whatever DNS answers), with
 * at most PAGE_LIMITS.maxBytes after decompression and PAGE_LIMITS.timeoutMs for the whole call.
 *
 * HTML goes through Mozilla's Readability (the Firefox reader view) over linkedom, a light
 * DOM without scripts or layout; when Readability finds no article the page's body text is
 * used. text/plain is passed as it is. The text is cut at PAGE_LIMITS.textMax characters.
 */
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import type { Config } from '../config.js';
import { Invalid } from '../domain/shared/errors.js';
import { EgressError, type Egress, type EgressResponse } from './egress.js';
import { fromEgress, sizeText, upstreamFailed, UpstreamError } from './upstream.js';

export const PAGE_LIMITS = {
  timeoutMs: 15_000,
  maxBytes: 5 * 2 ** 20,
  maxRedirects: 5,
  textMax: 100_000,
} as const;

export interface PageAnswer {
  /** The URL the text came from (after redirects). */
  url: string;
  title: string;
  text: string;
  /** True when the text was cut at PAGE_LIMITS.textMax characters. */
  truncated: boolean;
  contentType: 'text/html' | 'text/plain';
}

export interface WebPage {
  read(url: string): Promise<PageAnswer>;
}

export interface WebPageDeps {
  http: Egress;
  config: Config;
  clock: () => Date;
  /** Tests shorten the timeout; the daemon uses PAGE_LIMITS. */
  limits?: { timeoutMs?: number };
}

const SERVICE = 'The page';
const at = ['query', 'url'];

/** 400 unless `input` is an absolute http(s) URL. */
export function pageUrl(input: string): URL {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw Invalid.at(at, 'must be an absolute http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw Invalid.at(at, `must be an http or https URL, not ${url.protocol.replace(':', '')}`);
  return url;
}

// ---- charset --------------------------------------------------------------------------------

function charsetOf(contentType: string): string | undefined {
  return /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType)?.[1];
}

/** `<meta charset>` or `<meta http-equiv="Content-Type" content="…; charset=…">` near the top. */
function metaCharset(head: Buffer): string | undefined {
  const text = head.toString('latin1');
  return /<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)/i.exec(text)?.[1];
}

/**
 * Decodes the body: a BOM wins, then the header's charset, then (HTML) the meta tag, then UTF-8.
 */
export function decode(body: Buffer, contentType: string, html: boolean): string {
  let label: string | undefined;
  let start = 0;
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) {
    label = 'utf-8';
    start = 3;
  } else if (body[0] === 0xff && body[1] === 0xfe) {
    label = 'utf-16le';
    start = 2;
  } else if (body[0] === 0xfe && body[1] === 0xff) {
    label = 'utf-16be';
    start = 2;
  }
  label ??=
    charsetOf(contentType) ?? (html ? metaCharset(body.subarray(0, 4096)) : undefined) ?? 'utf-8';
  let decoder: InstanceType<typeof TextDecoder>;
  try {
    decoder = new TextDecoder(label);
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return decoder.decode(body.subarray(start));
}

// ---- HTML to text ---------------------------------------------------------------------------

const BLOCK = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'DD',
  'DETAILS',
  'DIV',
  'DL',
  'DT',
  'FIELDSET',
  'FIGCAPTION',
  'FIGURE',
  'FOOTER',
  'FORM',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'HEADER',
  'HR',
  'LI',
  'MAIN',
  'NAV',
  'OL',
  'P',
  'PRE',
  'SECTION',
  'SUMMARY',
  'TABLE',
  'TR',
  'UL',
  'CAPTION',
  'TBODY',
  'THEAD',
  'TFOOT',
]);
const SKIP = new Set([
  'SCRIPT',
  'STYLE',
  'NOSCRIPT',
  'TEMPLATE',
  'SVG',
  'IFRAME',
  'OBJECT',
  'CANVAS',
  'HEAD',
]);

interface DomNode {
  nodeType: number;
  nodeName: string;
  nodeValue: string | null;
  childNodes: ArrayLike<DomNode>;
}
/** What this module uses of linkedom's document (the project builds without the DOM typings). */
interface Dom extends DomNode {
  title?: string;
  body?: DomNode | null;
}

function parse(html: string): Dom {
  return (parseHTML(html) as unknown as { document: Dom }).document;
}

/** The text of a DOM subtree with a line break around each block and at each <br>. */
function blockText(root: DomNode): string {
  const out: string[] = [];
  const walk = (n: DomNode) => {
    if (n.nodeType === 3) {
      out.push((n.nodeValue ?? '').replace(/\s+/g, ' '));
      return;
    }
    if (n.nodeType !== 1 && n.nodeType !== 9 && n.nodeType !== 11) return;
    const name = n.nodeName.toUpperCase();
    if (SKIP.has(name)) return;
    if (name === 'BR') {
      out.push('\n');
      return;
    }
    const block = BLOCK.has(name);
    if (block) out.push('\n\n');
    for (let i = 0; i < n.childNodes.length; i++) walk(n.childNodes[i]);
    if (name === 'TD' || name === 'TH') out.push(' ');
    if (block) out.push('\n\n');
  };
  walk(root);
  return tidy(out.join(''));
}

/** Spaces collapsed, lines trimmed, at most one blank line in a row. */
export function tidy(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[^\S\n]+/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Title and text of an HTML page: Readability's article, else the body's text. */
export function htmlToText(html: string): { title: string; text: string } {
  const document = parse(html);
  const docTitle = tidy(String(document.title ?? ''));
  let article: { title?: string | null; content?: string | null } | null = null;
  try {
    article = new Readability(document).parse();
  } catch {
    // Readability trips over some markup; the body text below still reads.
  }
  if (article?.content) {
    const text = blockText(parse(`<!doctype html><html><body>${article.content}</body></html>`));
    if (text) return { title: tidy(article.title ?? '') || docTitle, text };
  }
  // Readability changes the document it reads: start again from the source.
  const fresh = parse(html);
  return { title: docTitle, text: blockText(fresh.body ?? fresh) };
}

export function capText(
  text: string,
  max: number = PAGE_LIMITS.textMax,
): { text: string; truncated: boolean } {
  if (text.length <= max) return { text, truncated: false };
  let cut = text.slice(0, max);
  const space = cut.search(/\s\S*$/);
  if (space > max * 0.9) cut = cut.slice(0, space);
  return { text: cut.trimEnd(), truncated: true };
}

// ---- the fetch ------------------------------------------------------------------------------

function kindOf(res: EgressResponse): 'text/html' | 'text/plain' {
  const header = res.headers['content-type'];
  const contentType = (Array.isArray(header) ? header[0] : header) ?? '';
  const mime = contentType.split(';')[0].trim().toLowerCase();
  if (mime === 'text/html' || mime === 'application/xhtml+xml') return 'text/html';
  if (mime === 'text/plain') return 'text/plain';
  if (!mime) {
    // No type at all: read it as HTML only when it plainly is.
    const start = res.body
      .subarray(0, 512)
      .toString('latin1')
      .replace(/^\uFEFF|^\xEF\xBB\xBF/, '')
      .trimStart()
      .toLowerCase();
    if (start.startsWith('<!doctype html') || start.startsWith('<html')) return 'text/html';
  }
  const named = mime || 'a document without a content type';
  throw new UpstreamError(
    'unsupported_content',
    `The page is ${named}; only HTML and plain text pages are read`,
    [
      {
        path: at,
        message: `is ${mime ? `a ${mime} document` : 'a document without a content type'}; only text/html and text/plain are read`,
      },
    ],
  );
}

export function createWebPage({ http, config, limits }: WebPageDeps): WebPage {
  const timeoutMs = limits?.timeoutMs ?? PAGE_LIMITS.timeoutMs;
  return {
    async read(input) {
      const url = pageUrl(input);
      let res: EgressResponse;
      try {
        res = await http.request({
          url,
          policy: config.egress.webPages,
          timeoutMs,
          maxBytes: PAGE_LIMITS.maxBytes,
          followRedirects: PAGE_LIMITS.maxRedirects,
          headers: { accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.1' },
        });
      } catch (err) {
        if (
          err instanceof EgressError &&
          (err.kind === 'refused_address' || err.kind === 'bad_url')
        ) {
          const via =
            err.host && err.host !== url.hostname ? ` (through a redirect to ${err.host})` : '';
          const why =
            err.kind === 'refused_address'
              ? `leads to a ${err.addressClass ?? 'refused'} address${err.address ? ` (${err.address})` : ''}${via}; only public addresses are fetched`
              : 'is not a URL that can be fetched';
          throw Invalid.at(at, why);
        }
        if (err instanceof EgressError && err.kind === 'too_large') {
          throw upstreamFailed(
            SERVICE,
            `is larger than ${sizeText(PAGE_LIMITS.maxBytes)} (decompressed), the most this daemon reads`,
          );
        }
        throw fromEgress(SERVICE, err, { timeoutMs, maxBytes: PAGE_LIMITS.maxBytes });
      }
      if (res.status < 200 || res.status > 299)
        throw upstreamFailed(SERVICE, `answered ${res.status}`);
      const kind = kindOf(res);
      const header = res.headers['content-type'];
      const contentType = (Array.isArray(header) ? header[0] : header) ?? '';
      const decoded = decode(res.body, contentType, kind === 'text/html');
      const { title, text } =
        kind === 'text/html' ? htmlToText(decoded) : { title: '', text: tidyPlain(decoded) };
      const capped = capText(text);
      return {
        url: res.url,
        title,
        text: capped.text,
        truncated: capped.truncated,
        contentType: kind,
      };
    },
  };
}

/** Plain text keeps its lines; only line endings and trailing spaces are tidied. */
function tidyPlain(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+\n/g, '\n')
    .trim();
}
