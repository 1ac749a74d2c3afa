/**
 * What a household page handler is given and answers (door.ts routes and renders them).
 */
import type Koa from 'koa';
import type { CoreServices } from '../door/route.js';
import type { HouseholdAccess } from '../family/access.js';
import type { ApiKeyRecord } from '../store/types.js';
import type { FamilyInfo } from '../domain/shared/state.js';
import type { Voice } from '../domain/i18n/voice.js';
import type { Form } from './forms.js';
import type { PairingProfiles } from './profiles.js';

export interface PagesDeps {
  services: CoreServices;
  access: HouseholdAccess;
  /** The daemon's own listening address: the pages act through its REST API. */
  baseUrl: () => string;
  /** The Apple profiles pairing pages prepared, for the browser that asked (profiles.ts). */
  profiles: PairingProfiles;
}

export interface Session {
  key: ApiKeyRecord;
  /** The cookie's value (`hs_…`), which the pages present to REST as an inner call. */
  cookie: string;
  family: FamilyInfo;
  csrf: string;
}

export interface PageRequest {
  koa: Koa.Context;
  deps: PagesDeps;
  /** The path's captured parts. */
  params: string[];
  /** A POST's form (checked for its CSRF token before the handler runs). */
  form: Form;
  session: Session | null;
  now: Date;
  /** The origin the browser addressed (links on the pages). */
  origin: string;
  secure: boolean;
  /**
   * Who reads the page (docs/pages.md): the family's locale and zone when it is known (signed
   * in, a pairing link), else the browser's Accept-Language among the shipped languages.
   */
  voice: Voice;
}

export type PageAnswer =
  | { html: string; status?: number }
  | { redirect: string }
  | { body: string | Buffer; type: string; headers?: Record<string, string> };

export interface PageRoute {
  method: 'GET' | 'POST';
  path: RegExp;
  /** Signed-in pages send everyone else to /signin; their forms carry the session's token. */
  signedIn: boolean;
  handle(r: PageRequest): Promise<PageAnswer>;
}

/** The signed-in request's session (the door runs signed-in handlers only with one). */
export const sessionOf = (r: PageRequest): Session => r.session!;
