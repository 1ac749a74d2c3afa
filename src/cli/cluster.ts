/**
 * The commands that move whole families on a cluster (docs/scaling.md, "Command line on a
 * cluster"): `backup <dir>` writes one export document per family and a manifest; `cluster
 * restore <dir>` puts such a backup into a cluster; `cluster import <dataDir>` moves the
 * families of an embedded store into one. Both refuse, before writing anything, when a family
 * (its slug, id, a key or a share link) already exists in the cluster, naming it; each family
 * goes in through `putWholeFamily` (the cluster's importWholeFamily), whose lease is released
 * right after so that the first daemon a request reaches takes it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Conflict } from '../domain/shared/errors.js';
import { Store, STORE_FILE } from '../store/store.js';
import type { Directory, WholeFamily } from '../store/ports.js';
import { exportFamily, putWhole, readExport } from '../store/portable.js';
import { SCHEMA_VERSION } from '../store/layout.js';
import { portableWhole, type ClusterStore } from '../cluster/cliStore.js';
import { CHECKPOINT } from '../cluster/replicated.js';
import { CliFailure, EXIT } from './exit.js';
import { makePrivateFolder, writePrivateFile } from './output.js';

export const MANIFEST_FILE = 'manifest.json';
export const BACKUP_FORMAT = 'household-organizer/cluster-backup';

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  schemaVersion: number;
  createdAt: string;
  /** The CLI node that read the families, and the NATS servers it reached. */
  takenBy: string;
  natsServers: string[];
  /** The nodes holding a family's lease when the backup read it. */
  nodes: string[];
  families: {
    id: string;
    slug: string;
    file: string;
    /** The last seq of the family's change log in the document. */
    lastSeq: number;
    /** How far into the family's subject the document goes (a stream sequence). */
    streamSeq: number;
    owner: string | null;
  }[];
}

export type BackupManifestFamily = BackupManifest['families'][number];

/** Every family of the cluster, each read by catching its subject up (no lease taken). */
export async function clusterBackup(
  cs: ClusterStore,
  folder: string,
  now: Date,
): Promise<{ manifest: string; families: BackupManifestFamily[] }> {
  const manifestPath = join(folder, MANIFEST_FILE);
  if (existsSync(manifestPath))
    throw new CliFailure(EXIT.refused, `${resolve(manifestPath)} exists: choose a new folder`);
  makePrivateFolder(folder, 'backup folder');
  const families: BackupManifestFamily[] = [];
  for (const listed of cs.store.listFamilies()) {
    const family = await cs.catchUp(listed.slug);
    const doc = portableWhole(exportFamily(cs.store, family.slug, now));
    const file = `${family.slug}.json`;
    writePrivateFile(join(folder, file), JSON.stringify(doc, null, 1));
    const owner = await cs.runtime.ownerOf(family.id, true).catch(() => null);
    families.push({
      id: family.id,
      slug: family.slug,
      file,
      lastSeq: cs.store.lastSeq(family.id),
      streamSeq: cs.store.getCheckpoint(CHECKPOINT, family.id),
      owner: owner?.node ?? null,
    });
  }
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    schemaVersion: SCHEMA_VERSION,
    createdAt: now.toISOString(),
    takenBy: cs.nodeName,
    natsServers: cs.runtime.config.natsServers,
    nodes: [...new Set(families.flatMap((f) => (f.owner ? [f.owner] : [])))].sort(),
    families,
  };
  // The manifest last: a folder with one is a complete backup.
  writePrivateFile(manifestPath, JSON.stringify(manifest, null, 1));
  return { manifest: manifestPath, families };
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new CliFailure(EXIT.refused, `cannot read ${resolve(file)}: ${(e as Error).message}`);
  }
}

/** The families of a backup folder, each checked as `import` checks an export. */
export function readBackup(folder: string): WholeFamily[] {
  const manifest = readJson(join(folder, MANIFEST_FILE)) as Partial<BackupManifest>;
  if (manifest?.format !== BACKUP_FORMAT || !Array.isArray(manifest.families)) {
    throw new CliFailure(
      EXIT.refused,
      `${resolve(folder, MANIFEST_FILE)} is not a cluster backup manifest (format "${BACKUP_FORMAT}")`,
    );
  }
  return manifest.families.map((f) => {
    const doc = readExport(readJson(join(folder, f.file)));
    if (doc.family.id !== f.id)
      throw new CliFailure(EXIT.refused, `${f.file} does not hold family ${f.id} (${f.slug})`);
    return portableWhole(doc);
  });
}

/** What of `doc` the cluster's directory already has, as a sentence; null when nothing. */
function clashOf(
  store: Pick<Directory, 'getFamilyBySlug' | 'getFamily' | 'getKey' | 'lookupIndex'>,
  doc: WholeFamily,
): string | null {
  const { slug, id } = doc.family;
  if (store.getFamilyBySlug(slug)) return `a family with slug "${slug}" exists`;
  if (store.getFamily(id)) return `family "${slug}": a family with id "${id}" exists`;
  const key = doc.keys.find((k) => store.getKey(k.id));
  if (key) return `family "${slug}": API key ${key.id} exists`;
  if ((doc.indexes ?? []).some((ix) => store.lookupIndex(ix.index as 'share-token', ix.key)))
    return `family "${slug}": one of its share links exists`;
  return null;
}

export interface PutCounts {
  families: number;
  keys: number;
  records: number;
  changes: number;
}

/**
 * Puts whole families into the cluster: refuses (Conflict, naming every clash) before writing
 * anything, then puts each and gives its lease back.
 */
export async function putFamilies(
  cs: ClusterStore,
  docs: WholeFamily[],
): Promise<{ families: { id: string; slug: string }[]; counts: PutCounts }> {
  const clashes = docs.map((d) => clashOf(cs.store, d)).filter((c): c is string => c !== null);
  if (clashes.length)
    throw new Conflict(`the cluster already holds what this would put in: ${clashes.join('; ')}`);
  const counts: PutCounts = { families: 0, keys: 0, records: 0, changes: 0 };
  const families: { id: string; slug: string }[] = [];
  for (const doc of docs) {
    try {
      await putWhole(cs.store, doc);
    } finally {
      await cs.runtime.release(doc.family.id).catch(() => undefined);
    }
    families.push({ id: doc.family.id, slug: doc.family.slug });
    counts.families += 1;
    counts.keys += doc.keys.length;
    counts.records += doc.records.length;
    counts.changes += doc.log.length;
  }
  return { families, counts };
}

/** Every family of the embedded store at `dataDir`, read (never written) as snapshots. */
export async function readEmbeddedStore(dataDir: string): Promise<WholeFamily[]> {
  if (!Store.exists(dataDir)) {
    throw new CliFailure(
      EXIT.usage,
      `no store in ${resolve(dataDir)} (no ${STORE_FILE} there): cluster import needs the data folder of an embedded daemon`,
    );
  }
  const source = Store.open(dataDir);
  try {
    return source.listFamilies().flatMap((f) => {
      const snap = source.snapshotFamily(f.slug);
      return snap ? [portableWhole(snap)] : [];
    });
  } finally {
    await source.close();
  }
}
