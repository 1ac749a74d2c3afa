/**
 * The family display's script as the browser gets it: the ES2017 modules src/display/ compiles
 * to (`npm run build`: dist/browser/, beside the daemon's dist/src/), read once when the daemon
 * starts, kept in memory and served as they are under an address that carries a hash of them
 * all (`/display/assets/<version>/display/main.js`), so a browser keeps them for a year and an
 * upgrade is fetched at once. No bundler: the page loads them with `<script type="module">`,
 * which Safari 12 and Chrome 80 run, and the modules import each other by relative address.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** dist/browser/, from this module's place in dist/src/public/. */
const ROOT = fileURLToPath(new URL('../../browser/', import.meta.url));
/** The folders of dist/browser/ the page may load from: the script's and the shared words'. */
const FOLDERS = ['display', 'locale'];
/** The module the page names; it imports the rest. */
const ENTRY = 'display/main.js';

export const DISPLAY_ASSET_TYPE = 'text/javascript; charset=utf-8';

function modulesIn(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) modulesIn(p, out);
    else if (name.endsWith('.js')) out.push(p);
  }
  return out;
}

function load(): { version: string; files: Map<string, Buffer> } {
  if (!existsSync(join(ROOT, ENTRY)))
    throw new Error(
      `The family display's script is not built: ${join(ROOT, ENTRY)} is missing (npm run build)`,
    );
  const files = new Map<string, Buffer>();
  const hash = createHash('sha256');
  for (const folder of FOLDERS) {
    for (const file of modulesIn(join(ROOT, folder))) {
      const path = relative(ROOT, file).split(sep).join('/');
      const body = readFileSync(file);
      files.set(path, body);
      hash.update(path).update('\0').update(body).update('\0');
    }
  }
  return { version: hash.digest('base64url').slice(0, 16), files };
}

const loaded = load();

/** The hash of every module: a new build gets new addresses. */
export const DISPLAY_ASSETS_VERSION = loaded.version;
export const DISPLAY_ASSETS_BASE = `/display/assets/${DISPLAY_ASSETS_VERSION}`;
/** The address the page's `<script type="module">` names. */
export const DISPLAY_SCRIPT_URL = `${DISPLAY_ASSETS_BASE}/${ENTRY}`;

/** A module of this build by its place (`display/main.js`); undefined for anything else. */
export function displayAsset(version: string, path: string): Buffer | undefined {
  return version === DISPLAY_ASSETS_VERSION ? loaded.files.get(path) : undefined;
}
