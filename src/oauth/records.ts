/**
 * The OAuth records kept in the store's OAuth space (clients, codes, tokens), their lifetimes,
 * the token endpoint's answer and the failure it is made of (docs/oauth.md).
 */
import { DoorError } from '../door/errors.js';
import type { ApiKeyRecord, FamilyInfo } from '../store/types.js';
import type { OAuthGrant, OAuthScope } from '../domain/oauth/grants.js';

export const CODE_SECONDS = 60;
export const ACCESS_SECONDS = 3600;
export const REFRESH_DAYS = 30;

export interface OAuthClient {
  id: string;
  name: string;
  redirectUris: string[];
  authMethod: 'none' | 'client_secret_basic' | 'client_secret_post';
  secretHash: string | null;
  createdAt: string;
  /** Hash of the registering address's rate-limit bucket: counts its unused registrations. */
  addressHash: string;
  /** When a code was first issued to it; unused registrations expire (docs/oauth.md). */
  usedAt: string | null;
}

export interface CodeRecord {
  id: string;
  secretHash: string;
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  scopes: OAuthScope[];
  resource: string;
  familyId: string;
  keyId: string;
  personId: string | null;
  expiresAt: number;
  /** Set when spent; the grant it made, so a replay can revoke it. */
  spentAt?: number;
  grantId?: string;
}

export interface TokenRecord {
  id: string;
  kind: 'access' | 'refresh';
  secretHash: string;
  grantId: string;
  familyId: string;
  clientId: string;
  scopes: OAuthScope[];
  expiresAt: number;
  spentAt?: number;
}

export interface TokenAnswer {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/**
 * An OAuth failure as RFC 6749 §5.2 names it: a 400 (`invalid`) or 401 (`unauthorized`) of
 * the error table, written by the OAuth door with its own `error` code.
 */
export class OAuthFailure extends DoorError {
  constructor(
    readonly error: string,
    message: string,
    status: 400 | 401 = 400,
  ) {
    super(status === 401 ? 'unauthorized' : 'invalid', message);
  }
}

/** What a verified access token lets its bearer be: the grant as a key of its family. */
export interface VerifiedGrant {
  grant: OAuthGrant;
  family: FamilyInfo;
  key: ApiKeyRecord;
}
