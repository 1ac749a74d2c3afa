/**
 * The check a family actor runs on every decision before it touches memory: that its records and
 * events are values LMDB's encoder can write (finite numbers, no functions or symbols, nesting at
 * most MAX_STORED_DEPTH levels).
 */
import { Invalid } from '../domain/shared/errors.js';
import type { Decision } from '../domain/shared/state.js';

/** How deep a stored value may nest; request bodies are capped lower, this is the last guard. */
export const MAX_STORED_DEPTH = 64;

/**
 * Refuses a decision whose records LMDB's encoder could not write (nesting past
 * MAX_STORED_DEPTH, values JSON cannot carry), before anything touches memory: such a record
 * would otherwise fail inside the commit and take the batch's other requests with it. The walk
 * is iterative, so it cannot overflow the stack however deep the value is.
 */
export function assertStorable(decision: Decision<unknown>): void {
  for (const c of decision.changes)
    if (c.value !== null && c.value !== undefined) checkValue(c.value);
  for (const e of decision.events) {
    checkValue(e.object);
    if (e.previous !== undefined) checkValue(e.previous);
  }
}

interface PathNode {
  key: string | number;
  parent: PathNode | null;
}

function pathOf(node: PathNode | null): (string | number)[] {
  const out: (string | number)[] = [];
  for (let n = node; n; n = n.parent) out.unshift(n.key);
  return out;
}

function checkValue(root: unknown): void {
  // Parallel stacks of values, their depth and where they sit (built into a path only on failure).
  const values: unknown[] = [root];
  const depths: number[] = [0];
  const places: (PathNode | null)[] = [null];
  while (values.length) {
    const value = values.pop();
    const depth = depths.pop()!;
    const place = places.pop()!;
    if (value === null || value === undefined) continue;
    switch (typeof value) {
      case 'string':
      case 'boolean':
        continue;
      case 'number':
        if (!Number.isFinite(value)) throw Invalid.at(pathOf(place), 'must be a finite number');
        continue;
      case 'object':
        break;
      case 'bigint':
      case 'function':
      case 'symbol':
      case 'undefined':
        throw Invalid.at(pathOf(place), 'cannot be stored');
    }
    if (depth >= MAX_STORED_DEPTH)
      throw Invalid.at(pathOf(place), `nests deeper than ${MAX_STORED_DEPTH} levels`);
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        values.push(value[i]);
        depths.push(depth + 1);
        places.push({ key: i, parent: place });
      }
    } else {
      for (const k in value) {
        values.push((value as Record<string, unknown>)[k]);
        depths.push(depth + 1);
        places.push({ key: k, parent: place });
      }
    }
  }
}
