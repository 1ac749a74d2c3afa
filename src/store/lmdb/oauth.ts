/**
 * The OAuth door's credentials in LMDB (docs/oauth.md): registered clients, grants, codes and
 * tokens under `['oauth', kind, id]`, beside the API keys. Secrets are kept only as hashes by
 * the callers (src/oauth); a read-and-write runs in one durable transaction.
 */
import { keys } from '../layout.js';
import type { OAuthCredentials } from '../ports.js';
import type { OAuthKind, OAuthWrite } from '../types.js';
import type { LmdbEnv } from './env.js';

export class LmdbOAuth implements OAuthCredentials {
  constructor(private readonly env: LmdbEnv) {}

  getOAuth<T>(kind: OAuthKind, id: string): T | undefined {
    return this.env.db.get(keys.oauth(kind, id)) as T | undefined;
  }

  listOAuth<T>(kind: OAuthKind): T[] {
    const out: T[] = [];
    for (const { value } of this.env.db.getRange({
      start: keys.oauthRangeStart(kind),
      end: keys.oauthRangeEnd(kind),
    })) {
      out.push(value as T);
    }
    return out;
  }

  transactOAuth<R>(
    fn: (read: <T>(kind: OAuthKind, id: string) => T | undefined) => {
      writes: readonly OAuthWrite[];
      result: R;
    },
  ): Promise<R> {
    const db = this.env.db;
    return this.env.write(() => {
      const { writes, result } = fn((kind, id) => db.get(keys.oauth(kind, id)) as never);
      for (const w of writes) {
        if (w.value === null) db.removeSync(keys.oauth(w.kind, w.id));
        else db.putSync(keys.oauth(w.kind, w.id), w.value);
      }
      return result;
    });
  }
}
