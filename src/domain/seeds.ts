/**
 * What every family starts with. Areas register seed functions here (the built-in collections,
 * src/domain/collections/builtins.ts); family creation writes their records in the same transaction as the family,
 * and activation adds any that are missing (a family imported from an older export, or created
 * before a seed existed), so every family has them.
 */
import type { FamilyInfo, RecordChange, FamilyState } from './shared/state.js';

export type Seed = (family: FamilyInfo, nowIso: string, state?: FamilyState) => RecordChange[];

const seeds: Seed[] = [];

export function registerSeed(seed: Seed): void {
  seeds.push(seed);
}

/** Seed records for a new family (no state) or the missing ones of an existing family. */
export function seedRecords(family: FamilyInfo, nowIso: string, state?: FamilyState): RecordChange[] {
  return seeds.flatMap((s) => s(family, nowIso, state));
}
