/**
 * The OAuth door's credentials and the checks that need no store (docs/oauth.md):
 *
 * - codes, access and refresh tokens are `<prefix>_<id>_<secret>` like API keys: the id
 *   finds the record, only the SHA-256 of the secret is kept and compared in constant time;
 * - PKCE: S256 only (RFC 7636), the verifier's form checked before it is hashed;
 * - scopes: `household:read` and `household:write`, nothing else;
 * - redirect URIs a client may register: https anywhere, http only on a loopback address
 *   (RFC 8252), or an app's private-use scheme; never a fragment.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { hashSecret, randomBase62 } from '../family/secrets.js';
import { OAUTH_SCOPES, type OAuthScope } from '../domain/oauth/grants.js';

export type CredentialKind = 'code' | 'access' | 'refresh';

const PREFIX: { [K in CredentialKind]: string } = { code: 'hoc', access: 'hoa', refresh: 'hor' };
const FORMAT = /^(hoc|hoa|hor)_([0-9A-Za-z]{16})_([0-9A-Za-z]{32})$/;

export interface MadeCredential {
  text: string;
  id: string;
  secretHash: string;
}

export function makeCredential(kind: CredentialKind): MadeCredential {
  const id = randomBase62(16);
  const secret = randomBase62(32);
  return { text: `${PREFIX[kind]}_${id}_${secret}`, id, secretHash: hashSecret(secret) };
}

/** The id and the secret's hash of a presented credential of that kind, or null if malformed. */
export function parseCredential(
  kind: CredentialKind,
  text: string,
): { id: string; secretHash: string } | null {
  const m = FORMAT.exec(text);
  if (!m || m[1] !== PREFIX[kind]) return null;
  return { id: m[2], secretHash: hashSecret(m[3]) };
}

/** Whether a token looks like one of ours (an access token), so it is not tried as an API key. */
export function looksLikeAccessToken(text: string): boolean {
  return text.startsWith(`${PREFIX.access}_`);
}

/** Constant-time comparison of two hex hashes (a missing one compares against zeros). */
export function sameHash(stored: string | undefined | null, presented: string): boolean {
  const a = Buffer.from(presented, 'hex');
  const b = stored ? Buffer.from(stored, 'hex') : Buffer.alloc(a.length);
  return a.length === b.length && timingSafeEqual(a, b) && !!stored;
}

/** A client secret: shown once at registration, kept as its hash. */
export function makeClientSecret(): { text: string; secretHash: string } {
  const secret = randomBase62(40);
  return { text: `hcs_${secret}`, secretHash: hashSecret(secret) };
}

export function clientSecretHash(text: string): string | null {
  const m = /^hcs_([0-9A-Za-z]{40})$/.exec(text);
  return m ? hashSecret(m[1]) : null;
}

// ---- PKCE -------------------------------------------------------------------------------------

const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
const CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;

export function validChallenge(challenge: string): boolean {
  return CHALLENGE.test(challenge);
}

/** RFC 7636 S256: BASE64URL(SHA256(ASCII(code_verifier))) equals the challenge. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier) || !CHALLENGE.test(challenge)) return false;
  const actual = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'));
  const expected = Buffer.from(challenge);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

// ---- scopes -----------------------------------------------------------------------------------

/**
 * The scopes of a `scope` parameter (space-separated, RFC 6749 §3.3); absent or empty means
 * all of them. An unknown scope → `{unknown}` naming it.
 */
export function parseScopes(
  text: string | undefined | null,
): { scopes: OAuthScope[] } | { unknown: string } {
  const words = (text ?? '').split(' ').filter(Boolean);
  if (!words.length) return { scopes: [...OAUTH_SCOPES] };
  const out = new Set<OAuthScope>();
  for (const w of words) {
    if (!(OAUTH_SCOPES as readonly string[]).includes(w)) return { unknown: w };
    out.add(w as OAuthScope);
  }
  return { scopes: OAUTH_SCOPES.filter((s) => out.has(s)) };
}

/** Write implies read: a grant of household:write also reads. */
export function withImplied(scopes: readonly OAuthScope[]): OAuthScope[] {
  return scopes.includes('household:write')
    ? [...OAUTH_SCOPES]
    : scopes.filter((s) => s === 'household:read');
}

// ---- redirect URIs ----------------------------------------------------------------------------

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const FORBIDDEN_SCHEMES = new Set([
  'javascript:',
  'data:',
  'vbscript:',
  'file:',
  'blob:',
  'about:',
  'ftp:',
  'ws:',
  'wss:',
]);

/** Why a redirect URI cannot be registered, or null when it can. */
export function redirectUriProblem(uri: string): string | null {
  let u: URL;
  try {
    u = new URL(uri);
  } catch {
    return 'is not an absolute URI';
  }
  if (u.hash || uri.includes('#')) return 'must not have a fragment';
  if (u.username || u.password) return 'must not carry a user name or password';
  if (u.protocol === 'https:') return null;
  if (u.protocol === 'http:') {
    return LOOPBACK_HOSTS.has(u.hostname) || /^127\.\d+\.\d+\.\d+$/.test(u.hostname)
      ? null
      : 'must use https (plain http only on a loopback address such as http://127.0.0.1:port/callback)';
  }
  if (FORBIDDEN_SCHEMES.has(u.protocol)) return `must not use the ${u.protocol} scheme`;
  // A native app's private-use scheme (RFC 8252 §7.1), e.g. com.example.app:/callback.
  return /^[a-z][a-z0-9+.-]*:$/.test(u.protocol) ? null : 'has an unusable scheme';
}

/**
 * The CSP `form-action` source that lets the consent form's answer redirect to `uri`
 * (Chromium applies form-action to the redirect after a form post).
 */
export function formActionSource(uri: string): string {
  const u = new URL(uri);
  return u.protocol === 'https:' || u.protocol === 'http:' ? u.origin : u.protocol;
}
