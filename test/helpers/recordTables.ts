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
   * not a named schema: `POST /path`, read from the operation; a view inside another's:
   * `Parent.list[]`, the items of that property). A record no endpoint answers with (a check)
   * has no view schema.
   */
  name: string;
  storeTable: string;
  schemas: { view?: string; create: string; update?: string };
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
  if (!rec.within) return records.find((r) => r.table === rec.storeTable && r.id === id)?.value;
  // Inside lists of lists (`polls.options`): each level's items hold the next level's list.
  let items = records.filter((r) => r.table === rec.storeTable).map((r) => r.value);
  for (const list of rec.within.split('.'))
    items = items.flatMap((x) => x[list] as Record<string, unknown>[]);
  return items.find((x) => x[rec.storedIdKey ?? 'id'] === id);
}

/** The stored record of that id in an export of the family. */
export function storedIn(rec: RecordCase, t: TestServer, slug: string, id: unknown): unknown {
  const exported = exportFamily(t.daemon.store, slug, new Date());
  return locate(rec, exported.records as Stored[], id);
}

export type Schema = {
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
  items?: Schema;
  type?: unknown;
  $ref?: string;
};

export function takesNull(s: Schema): boolean {
  return s.type === 'null' || (s.anyOf ?? []).some(takesNull);
}
