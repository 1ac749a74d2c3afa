/**
 * The consent page of `GET /oauth/authorize` (docs/oauth.md): a household admin approves an
 * assistant by typing an admin API key of the family and choosing what it may do. Same rules
 * as the plan page: inline CSS, no scripts, no outside assets, every value escaped, readable
 * on a phone; the form posts back to the same address (relative, so a path prefix holds).
 */
import { escapeHtml as e, pageHead } from '../door/html.js';
import type { KeyOf, Values } from '../domain/i18n/messages.js';
import type Koa from 'koa';
import { bestLocale } from '../domain/i18n/negotiate.js';
import { voiceOf, type Voice } from '../domain/i18n/voice.js';

/** The consent page's reader before a key names the family: the browser's language. */
export function browserVoice(ctx: Koa.Context): Voice {
  return voiceOf(bestLocale(ctx.get('accept-language')), 'UTC');
}
import type { OAuthScope } from '../domain/oauth/grants.js';
import { formActionSource } from './credentials.js';

/** The authorization request as the page carries it from the GET to the POST. */
export interface AuthorizeRequest {
  response_type: string;
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  code_challenge_method: string;
  state?: string | undefined;
  scope?: string | undefined;
  resource?: string | undefined;
}

export interface ConsentView {
  request: AuthorizeRequest;
  clientName: string;
  /** Scopes the client asked for (write implies read): the admin chooses among them. */
  offered: OAuthScope[];
  /** What is chosen when the page opens (or was chosen before a wrong key). */
  chosen: 'read' | 'write';
  error?: string | undefined;
  /** Who reads it: the family's voice when known, else the browser's language (consentFlow.ts). */
  voice: Voice;
}

const CSS = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2a24;background:#f4f6f2}
main{max-width:32rem;margin-block:0;margin-inline:auto;padding-block:1.25rem 3rem;padding-inline:1rem}
h1{font-size:1.5rem;line-height:1.25;margin-block:.25rem .75rem;overflow-wrap:anywhere}
p{margin-block:.5rem}
.muted{color:#5d6b62;font-size:.92rem;overflow-wrap:anywhere}
fieldset{border:1px solid #dde3dc;border-radius:.6rem;background:#fff;margin-block:1rem;margin-inline:0;padding-block:.6rem;padding-inline:.85rem}
legend{font-weight:600;padding-inline:.3rem}
label{display:block;margin-block:.35rem}
.choice{display:flex;gap:.6rem;align-items:flex-start;padding-block:.35rem;text-align:start}
.choice input{margin-block-start:.3rem;width:1.2rem;height:1.2rem}
input[type=password]{width:100%;font:inherit;padding-block:.6rem;padding-inline:.7rem;border:1px solid #8a978f;border-radius:.5rem;background:#fff;color:#1f2a24}
.buttons{display:flex;gap:.75rem;flex-wrap:wrap;margin-block-start:1.25rem}
button{font:inherit;font-weight:600;padding-block:.65rem;padding-inline:1.2rem;border-radius:.5rem;border:1px solid #2f4a38;cursor:pointer;min-height:2.75rem}
.approve{background:#2f4a38;color:#fff}
.deny{background:#fff;color:#2f4a38}
button:focus-visible,input:focus-visible{outline:3px solid #7fa487;outline-offset:2px}
.error{background:#fbe9e7;border:1px solid #b3261e;color:#8c1d18;border-radius:.5rem;padding-block:.6rem;padding-inline:.8rem}
bdi{unicode-bidi:isolate}
`;

const FAVICON = `<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32' rx='7' fill='%232f4a38'/%3E%3Cpath d='M16 6 5 15.5h3.2V26h5.6v-6.5h4.4V26h5.6V15.5H27z' fill='%23f4f6f2'/%3E%3C/svg%3E">`;

function head(title: string, voice: Voice): string {
  return `${pageHead({ title, style: CSS, extra: FAVICON, voice })}<body>
<main>
`;
}

/** A message of the consent page (`pages` section), escaped, with some values as markup. */
function sayer(voice: Voice) {
  return (key: KeyOf<'pages'>, values: Values = {}, markup: Record<string, string> = {}) => {
    const marked: Record<string, string | number> = { ...values };
    Object.keys(markup).forEach((name, i) => (marked[name] = `\u0001${i}\u0001`));
    const html = e(voice.say('pages', key, marked));
    return Object.values(markup).reduce((o, m, i) => o.split(`\u0001${i}\u0001`).join(m), html);
  };
}

export function renderConsent(v: ConsentView): string {
  const r = v.request;
  const say = sayer(v.voice);
  const hidden = (Object.keys(r) as (keyof AuthorizeRequest)[])
    .filter((k) => r[k] !== undefined)
    .map((k) => `<input type="hidden" name="${k}" value="${e(r[k]!)}">`)
    .join('\n');
  const target = new URL(r.redirect_uri);
  const where =
    target.protocol === 'https:' || target.protocol === 'http:' ? target.host : target.protocol;
  const canWrite = v.offered.includes('household:write');
  const chosen = canWrite ? v.chosen : 'read';
  return `${head(v.voice.say('pages', 'consentTitle'), v.voice)}<h1>${say('consentHeading', {}, { client: `<bdi>${e(v.clientName)}</bdi>` })}</h1>
<p class="muted">${say('consentIntro', {}, { where: `<strong><bdi>${e(where)}</bdi></strong>` })}</p>
${v.error ? `<p class="error" role="alert" id="error">${e(v.error)}</p>\n` : ''}<form method="post" action="authorize">
${hidden}
<fieldset>
<legend>${say('consentWhat')}</legend>
<label class="choice"><input type="radio" name="grant_scope" value="read"${chosen === 'read' ? ' checked' : ''}><span>${say('consentRead')}</span></label>
${canWrite ? `<label class="choice"><input type="radio" name="grant_scope" value="write"${chosen === 'write' ? ' checked' : ''}><span>${say('consentWrite')}</span></label>\n` : ''}</fieldset>
<label for="api_key"><strong>${say('consentKey')}</strong></label>
<input type="password" id="api_key" name="api_key" autocomplete="off" required aria-describedby="key-help">
<p class="muted" id="key-help">${say('consentKeyHelp')}</p>
<div class="buttons">
<button class="approve" type="submit" name="decision" value="approve">${say('allow')}</button>
<button class="deny" type="submit" name="decision" value="deny" formnovalidate>${say('deny')}</button>
</div>
</form>
</main>
</body>
</html>
`;
}

/** A page for a request that cannot be sent back to the client (unknown client, unregistered redirect). */
export function renderProblem(message: string, voice: Voice): string {
  const say = sayer(voice);
  return `${head(voice.say('pages', 'consentProblemTitle'), voice)}<h1>${say('consentProblem')}</h1>
<p class="error" role="alert" id="error">${e(message)}</p>
<p class="muted">${say('consentRestart')}</p>
</main>
</body>
</html>
`;
}

/** Headers of every consent page: no caching, no framing, and only the client's redirect may follow the form. */
export function consentHeaders(redirectUri: string | null): Record<string, string> {
  const formAction = redirectUri ? `'self' ${formActionSource(redirectUri)}` : "'none'";
  return {
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-robots-tag': 'noindex, nofollow',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action ${formAction}; frame-ancestors 'none'`,
  };
}
