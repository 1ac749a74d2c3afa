/**
 * The API reference in a browser: `GET /api/docs` (no key) renders the served OpenAPI document
 * with Swagger UI, shipped as the npm package swagger-ui-dist and served from node_modules
 * under /api/docs/assets/. Households run this offline, so nothing comes from a CDN and the
 * page's Content-Security-Policy allows this origin only: no script, style, image, font or
 * request may reach another one (Swagger UI's validator badge, which would call out, is off).
 *
 * "Try it out" sends requests to the origin the page was loaded from (listed first among the
 * servers), so it works whichever address a browser on the LAN used.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { NotFound } from '../../domain/shared/errors.js';
import { route, defineRoutes, withStatus } from '../route.js';
import { S } from '../../door/schema.js';

const DIST = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const VERSION = (
  JSON.parse(readFileSync(join(DIST, 'package.json'), 'utf8')) as { version: string }
).version;
const BASE = '/api/docs';

export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Starts Swagger UI on the document, with this origin as the first server. */
const INIT_JS = `'use strict';
fetch('/api/v1/openapi.json', { headers: { accept: 'application/json' } })
  .then(function (r) { return r.json(); })
  .then(function (spec) {
    var here = { url: window.location.origin, description: 'This daemon, at the address this page came from' };
    spec.servers = [here].concat((spec.servers || []).filter(function (s) { return s.url !== here.url; }));
    window.ui = SwaggerUIBundle({
      spec: spec,
      dom_id: '#swagger-ui',
      deepLinking: true,
      validatorUrl: null,
      displayRequestDuration: true,
      defaultModelsExpandDepth: 0,
      presets: [SwaggerUIBundle.presets.apis],
      layout: 'BaseLayout'
    });
  });
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Household Organizer API reference</title>
<link rel="icon" type="image/png" sizes="32x32" href="${BASE}/assets/favicon-32x32.png?v=${VERSION}">
<link rel="stylesheet" href="${BASE}/assets/swagger-ui.css?v=${VERSION}">
</head>
<body>
<main id="swagger-ui"><noscript>The reference needs JavaScript. The document itself is at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</noscript></main>
<script src="${BASE}/assets/swagger-ui-bundle.js?v=${VERSION}"></script>
<script src="${BASE}/assets/init.js?v=${VERSION}"></script>
</body>
</html>
`;

interface Asset {
  type: string;
  body: Buffer;
  gzipped?: Buffer;
}

/** The files the page uses, read once on first use; nothing else under the folder is served. */
const SOURCES: Record<string, { type: string; file?: string; text?: string; gzip: boolean }> = {
  'swagger-ui-bundle.js': {
    type: 'text/javascript; charset=utf-8',
    file: 'swagger-ui-bundle.js',
    gzip: true,
  },
  'swagger-ui.css': { type: 'text/css; charset=utf-8', file: 'swagger-ui.css', gzip: true },
  'favicon-32x32.png': { type: 'image/png', file: 'favicon-32x32.png', gzip: false },
  'favicon-16x16.png': { type: 'image/png', file: 'favicon-16x16.png', gzip: false },
  'init.js': { type: 'text/javascript; charset=utf-8', text: INIT_JS, gzip: false },
};
const loaded = new Map<string, Asset>();

function asset(name: string): Asset | undefined {
  if (!Object.hasOwn(SOURCES, name)) return undefined;
  let a = loaded.get(name);
  if (!a) {
    const src = SOURCES[name];
    const body =
      src.text !== undefined ? Buffer.from(src.text) : readFileSync(join(DIST, src.file!));
    a = { type: src.type, body, ...(src.gzip ? { gzipped: gzipSync(body, { level: 9 }) } : {}) };
    loaded.set(name, a);
  }
  return a;
}

const COMMON = {
  'content-security-policy': DOCS_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

export default defineRoutes([
  route({
    method: 'get',
    path: BASE,
    family: false,
    scope: 'public',
    tags: ['System'],
    summary: 'This reference, in a browser',
    description:
      'Swagger UI on this document, served from the daemon itself: no request leaves the machine. "Try it out" needs an API key (Authorize).',
    produces: 'text/html',
    response: { type: 'string', description: 'The page' },
    handler: () =>
      withStatus(200, PAGE, {
        ...COMMON,
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-cache',
      }),
  }),
  route({
    method: 'get',
    path: `${BASE}/assets/:asset`,
    family: false,
    scope: 'public',
    tags: ['System'],
    summary: 'A file of the reference page',
    description:
      "The page's script, style sheet and icon, from the swagger-ui-dist package. Addresses carry the package version (`v`), so a file is cached for a year and an upgrade fetches the new one; gzip when the browser accepts it.",
    query: S.object({
      v: S.optional(
        S.string({
          max: 40,
          description: "The renderer's version: only makes the address change with it",
        }),
      ),
    }),
    produces: 'text/javascript',
    response: { type: 'string' },
    alsoResponses: [
      {
        status: 200,
        contentType: 'text/css',
        schema: { type: 'string' },
        description: 'The style sheet',
      },
      {
        status: 200,
        contentType: 'image/png',
        schema: { type: 'string', contentMediaType: 'image/png' },
        description: 'The icon',
      },
    ],
    handler: ({ koa, params }) => {
      const a = asset(params.asset ?? '');
      if (!a) throw new NotFound('No such file of the API reference');
      // No Accept-Encoding at all gets the plain bytes (curl, scripts), whatever RFC 9110 allows.
      const gzip =
        a.gzipped !== undefined &&
        koa.get('accept-encoding') !== '' &&
        koa.acceptsEncodings('gzip', 'identity') === 'gzip';
      return withStatus(200, gzip ? a.gzipped : a.body, {
        ...COMMON,
        'content-type': a.type,
        'cache-control': 'public, max-age=31536000, immutable',
        ...(a.gzipped ? { vary: 'Accept-Encoding' } : {}),
        ...(gzip ? { 'content-encoding': 'gzip' } : {}),
      });
    },
  }),
]);
