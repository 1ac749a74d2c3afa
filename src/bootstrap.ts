/**
 * The first start (server.ts, step 3): on an empty store, the first family and its admin key,
 * printed once on stderr; a store whose first family has no usable key says how to make one.
 */
import { resolve as resolvePath } from 'node:path';
import type { Logger } from 'pino';
import { defaultFamilyZone, type Config } from './config.js';
import type { AdminStore } from './family/admin.js';
import { createFamily } from './family/admin.js';
import { Conflict, Invalid } from './domain/shared/errors.js';
import { StartupError } from './startup.js';
import type { IdGenerator } from './domain/shared/ids.js';
import type { FamilyInfo } from './domain/shared/state.js';
import { addressLines, runningInImage } from './banner.js';
import { HouseholdAccess, type AccessStore } from './family/access.js';
import type { Addresses } from './addresses.js';

/** What a caller of the daemon may do instead of printing (tests, mostly). */
export interface BootstrapHooks {
  /**
   * Called with the first family's key when the store was empty (default: print it on stderr);
   * `url` is the first address other devices can use (this machine's when there is none),
   * `localUrl` the one this machine reaches.
   */
  onBootstrap?: (family: FamilyInfo, apiKey: string, url: string, localUrl: string) => void;
  /** Called when the first family exists but has no usable key (default: print how to make one). */
  onNoKey?: (family: FamilyInfo, dataDir: string) => void;
  /**
   * Called at each start while the first family waits for its setup page, with the code that
   * page asks for (default: print it with the addresses on stderr).
   */
  onSetupCode?: (family: FamilyInfo, code: string, url: string) => void;
}

interface BootstrapDeps {
  config: Config;
  now: () => Date;
  newId: IdGenerator;
  logger: Logger;
  addresses: Addresses;
  opts: BootstrapHooks;
  /** publicUrl names this machine's localhost although other devices are meant to connect. */
  publicUrlUnusable: boolean;
}

export async function bootstrap(
  store: AdminStore & AccessStore,
  slug: string,
  d: BootstrapDeps,
): Promise<void> {
  const setup = d.config.families.firstRunSetup;
  if (store.listFamilies().length === 0) {
    try {
      const made = await createFamily(
        store,
        { slug, name: 'Home' },
        {
          now: d.now(),
          newId: d.newId,
          defaultTimezone: defaultFamilyZone(d.config),
          // An admin key always: the first start prints one, so a script or the CLI works
          // before anyone opens a browser. The setup page is for the household; its code
          // guards the page from others on the LAN until someone who saw this terminal uses it.
          withKey: 'admin (first start)',
        },
      );
      const local = d.addresses.local;
      const url = d.addresses.shareable[0] ?? local;
      if (d.opts.onBootstrap) d.opts.onBootstrap(made.family, made.apiKey!, url, local);
      else printBootstrap(made.family, made.apiKey!, d.addresses, d.publicUrlUnusable);
      // The key itself only on stderr (printBootstrap): log pipelines keep stdout's JSON.
      d.logger.info(
        { family: made.family.slug, keyId: made.key?.id ?? null },
        'created the first family and its admin key (printed on stderr)',
      );
      if (setup) {
        await offerSetup(store, made.family, d, false);
        d.logger.info({ family: made.family.slug }, 'the first family waits for its setup page');
      }
      return;
    } catch (err) {
      if (err instanceof Invalid) {
        throw new StartupError(
          `cannot create the first family from families.bootstrapSlug "${slug}" and families.defaultTimezone: ${err.message}`,
        );
      }
      // Conflict: `family create <slug>` from the command line got there first; that family stands.
      if (!(err instanceof Conflict)) throw err;
    }
  }
  const family = store.getFamilyBySlug(slug);
  if (family && new HouseholdAccess(store).setupPending(family.id)) {
    await offerSetup(store, family, d);
    return;
  }
  if (family && !store.listKeys(family.id).some((k) => !k.revokedAt)) {
    (d.opts.onNoKey ?? printNoKey)(family, d.config.storage.dataDir);
    d.logger.warn({ family: family.slug }, 'the first family has no active API key');
  }
}

/**
 * A new setup code for a family that waits for its setup page (the last one printed works),
 * printed with the addresses to open, and in the log.
 */
async function offerSetup(
  store: AccessStore,
  family: FamilyInfo,
  d: BootstrapDeps,
  // False right after the key's banner, which already listed them.
  withAddresses = true,
): Promise<void> {
  const code = await new HouseholdAccess(store).mintSetupCode(family.id, d.now());
  const url = d.addresses.shareable[0] ?? d.addresses.local;
  if (d.opts.onSetupCode) d.opts.onSetupCode(family, code, url);
  else
    process.stderr.write(
      `\nFamily "${family.slug}" waits to be set up. Open the household's address in a browser and give this setup code:\n\n` +
        `    ${code}\n\n` +
        (withAddresses ? addressLines(d.addresses, runningInImage()) : '') +
        (withAddresses && d.publicUrlUnusable
          ? `server.publicUrl names this machine's localhost: set HOUSEHOLD_PUBLIC_URL to an address above (or the one Docker publishes), or unset it.\n`
          : '') +
        '\n',
    );
  // In the log too, as the setup page tells (like a notebook server's token): it opens only
  // the setup, is replaced at the next start, and stops working once the family is set up.
  d.logger.info(
    { family: family.slug, setupCode: code, url },
    `setup code for "${family.slug}": ${code}`,
  );
}

/**
 * The first-start banner, for the person at the terminal or reading `docker logs`. It goes to
 * stderr so that stdout stays one JSON log object per line (docs/decisions.md, Operations).
 */
function printBootstrap(
  family: FamilyInfo,
  apiKey: string,
  addresses: Addresses,
  publicUrlUnusable: boolean,
): void {
  const url = addresses.shareable[0] ?? addresses.local;
  process.stderr.write(
    `\nCreated the first family "${family.slug}" in time zone ${family.timezone}. If the household lives in another zone:\n` +
      `    household-organizer family update ${family.slug} --timezone <Area/City>\n` +
      `Its admin API key is shown only this once; keep it somewhere safe:\n\n    ${apiKey}\n\n` +
      addressLines(addresses, runningInImage()) +
      `Try: curl -H 'x-api-key: ${apiKey}' ${url}/api/v1/families/${family.slug}/changes\n` +
      `API reference in a browser (no key needed to read it): ${url}/api/docs\n` +
      (publicUrlUnusable
        ? `server.publicUrl names this machine's localhost: set HOUSEHOLD_PUBLIC_URL to an address above (or the one Docker publishes), or unset it.\n`
        : '') +
      '\n',
  );
}

function printNoKey(family: FamilyInfo, dataDir: string): void {
  process.stderr.write(
    `Family "${family.slug}" has no active API key. Make one with: ` +
      `household-organizer key create ${family.slug} --data-dir ${resolvePath(dataDir)}\n`,
  );
}
