/**
 * What test/http/recordTables.e2e.test.ts knows of each record on a field table, and reading
 * a stored record out of a family's export.
 */
import type { Client, TestServer } from './server.js';
import { exportFamily } from '../../src/store/portable.js';
import type { Derived, FieldTable } from '../../src/domain/shared/record.js';

export interface RecordCase {
  /**
   * The record's name, its store table and the names of its published schemas (a body that is
   * not a named schema: `POST /path`, read from the operation; an answer's record that is not:
   * `GET /path key`, the answer's `key`, an item of it when a list). A record no endpoint
   * answers with (a check) has no view schema; one no create makes (preferences) no create;
   * a view inside another's: `Parent.list[]`, the items of that property.
   */
  name: string;
  storeTable: string;
  schemas: { view?: string; create?: string; update?: string };
  /** Where it is stored when not among the records: the family's keys (a device is a key). */
  storedIn?: 'keys';
  /** Its id in the store, when the answer has none (the family's one preferences record). */
  storedId?: string;
  /** The key of the stored value that holds its fields, when not the value itself. */
  storedAt?: string;
  /**
   * Its fields' own answer schemas (`response`) only word the schema as it was published: the
   * answer shows the stored value (so its null and its default are held to the table too).
   */
  responseShowsStored?: boolean;
  /** Fields a record written before them lacks, besides the optional ones of a create. */
  olderLacks?: string[];
  table: FieldTable;
  /** Fields of the PATCH body that are orders, not the record's. */
  patchMore?: string[];
  /** Fields a PATCH must send (a feed's hint, the one field it changes). */
  patchRequired?: string[];
  /** The answer's name of the record's id, where it is not `id`. */
  idKey?: string;
  /**
   * Where it is stored, when inside another record (a note in its plan's `notes`; an option in
   * `polls.options`, the options of its plan's polls).
   */
  within?: string;
  /** The stored name of its id inside its parent's list, where it is not `id`. */
  storedIdKey?: string;
  derived?: Record<string, Derived<never, never>>;
  /**
   * Sends a PATCH of values the record already has (as sent or as the table cleans them) and
   * answers the record it gets back: nothing may change and nothing be logged.
   */
  samePatch?(client: Client, made: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Makes one record with every field the create takes set; its view. */
  create(client: Client): Promise<Record<string, unknown>>;
  /**
   * The view of the record with that id, read over REST. Without one (no endpoint lists the
   * record), the round trip compares the stored records.
   */
  read?(client: Client, id: string): Promise<Record<string, unknown>>;
}

export type Stored = { table: string; id: string; value: Record<string, unknown> };

/** The stored record of that id among an export's records (inside its parent's list `within`). */
export function locate(
  rec: RecordCase,
  records: readonly Stored[],
  id: unknown,
): Record<string, unknown> | undefined {
  if (rec.storedAt) {
    const value = records.find((r) => r.table === rec.storeTable && r.id === rec.storedId)?.value;
    return value?.[rec.storedAt] as Record<string, unknown> | undefined;
  }
  if (!rec.within) return records.find((r) => r.table === rec.storeTable && r.id === id)?.value;
  // Inside lists of lists (`polls.options`): each level's items hold the next level's list.
  let items = records.filter((r) => r.table === rec.storeTable).map((r) => r.value);
  for (const list of rec.within.split('.'))
    items = items.flatMap((x) => x[list] as Record<string, unknown>[]);
  return items.find((x) => x[rec.storedIdKey ?? 'id'] === id);
}

/** The stored records of an export where the record is kept (a device among the keys). */
export function exportedRecords(
  rec: RecordCase,
  exported: { records: unknown[]; keys: unknown[] },
): Stored[] {
  if (rec.storedIn !== 'keys') return exported.records as Stored[];
  return (exported.keys as { id: string }[]).map((k) => ({
    table: rec.storeTable,
    id: k.id,
    value: k,
  }));
}

/** The stored record of that id in an export of the family. */
export function storedIn(rec: RecordCase, t: TestServer, slug: string, id: unknown): unknown {
  const exported = exportFamily(t.daemon.store, slug, new Date());
  return locate(rec, exportedRecords(rec, exported), id);
}

type Doc = { paths: Record<string, Record<string, Operation>> };
type Operation = {
  requestBody: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
};

/**
 * A schema named by its operation: `POST /path` is its request body, `GET /path key` the
 * answer's `key` (its items when a list).
 */
export function operationSchema(doc: Doc, spec: string): Schema {
  const [method, path, key] = spec.split(' ');
  const op = doc.paths[`/api/v1/families/{familySlug}${path}`][method.toLowerCase()];
  if (!key) return op.requestBody.content['application/json'].schema;
  const ok = Object.keys(op.responses).find((s) => s.startsWith('2'))!;
  const answer = op.responses[ok].content!['application/json'].schema;
  const value = answer.properties![key];
  return value.items ?? value;
}

export type Schema = {
  properties?: Record<string, Schema>;
  items?: Schema;
  required?: string[];
  anyOf?: Schema[];
  type?: unknown;
  $ref?: string;
};

export function takesNull(s: Schema): boolean {
  const types = Array.isArray(s.type) ? s.type : [s.type];
  return types.includes('null') || (s.anyOf ?? []).some(takesNull);
}
