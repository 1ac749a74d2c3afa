/**
 * What every family starts with: the seeds of the areas listed in src/domain/areas.ts (the
 * built-in collections, src/domain/collections/builtins.ts); family creation writes their records
 * in the same transaction as the family, and activation adds any that are missing (a family
 * imported from an older export, or created before a seed existed), so every family has them.
 */
import { areas } from './areas.js';
import type { FamilyInfo, RecordChange, FamilyState } from './shared/state.js';

export type Seed = (family: FamilyInfo, nowIso: string, state?: FamilyState) => RecordChange[];

/** Seed records for a new family (no state) or the missing ones of an existing family. */
export function seedRecords(family: FamilyInfo, nowIso: string, state?: FamilyState): RecordChange[] {
  return areas().flatMap((a) => a.seed?.(family, nowIso, state) ?? []);
}
