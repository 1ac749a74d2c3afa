/**
 * Feed addresses (docs/feeds.md): `http`, `https`, and `webcal`/`webcals` read as https.
 * Credentials written into the URL (`https://user:secret@host/…`) are taken out and sent as Basic
 * auth; they are never shown again. Private feed URLs are secrets too: views show only the scheme
 * and host, with path and query masked.
 */
import { Invalid } from '../shared/errors.js';
import { FEED_URL_MAX, type FeedCredentials } from './types.js';

export interface FeedAddress {
  /** http(s) URL without user-info and fragment. */
  url: string;
  credentials: FeedCredentials | null;
}

function refuse(message: string): never {
  throw Invalid.at(['url'], message);
}

export function readFeedAddress(input: string): FeedAddress {
  const raw = input.trim();
  if (!raw) refuse('must not be blank');
  if (Array.from(raw).length > FEED_URL_MAX) refuse(`must be at most ${FEED_URL_MAX} characters`);
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(raw)?.[1]?.toLowerCase();
  if (!scheme) refuse('must be an absolute http, https or webcal URL');
  if (!['http', 'https', 'webcal', 'webcals'].includes(scheme))
    refuse(`must use http, https or webcal, not ${scheme}`);
  const normalized = scheme.startsWith('webcal') ? `https:${raw.slice(scheme.length + 1)}` : raw;
  let url: URL;
  try {
    url = new URL(normalized);
  } catch {
    refuse('is not a valid URL');
  }
  if (!url.hostname) refuse('has no host');
  let credentials: FeedCredentials | null = null;
  if (url.username || url.password) {
    try {
      credentials = {
        username: decodeURIComponent(url.username),
        password: decodeURIComponent(url.password),
      };
    } catch {
      refuse('has credentials that are not valid percent-encoding');
    }
    url.username = '';
    url.password = '';
  }
  url.hash = '';
  return { url: url.toString(), credentials };
}

/** `https://calendar.example.org/***?***`: scheme, host and port only. */
export function maskedUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return '***';
  }
  const path = u.pathname && u.pathname !== '/' ? '/***' : '/';
  return `${u.protocol}//${u.host}${path}${u.search ? '?***' : ''}`;
}
