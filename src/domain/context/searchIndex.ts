/**
 * The context search index of one family: a MiniSearch full-text index over the documents of
 * documents.ts, built on the first search and then kept current from the family's writes.
 *
 * How it stays current: the family state journals the record changes it applies
 * (`FamilyState.changesSince`). Before each search the index asks for the changes since the
 * version it last saw and re-indexes only the records they touched (reading each one's
 * current value, so several changes to one record cost one update). When the journal no
 * longer reaches back — the family was reloaded after a failed commit, an import replaced
 * everything, or thousands of writes happened without a search in between — the index is
 * built again from the tables. Searches only ever run on durable state (reads wait while a
 * batch is being written), so the index never holds a change that may still be lost.
 *
 * The index lives beside the family's state (a WeakMap keyed by the state object), so it
 * goes when the family's actor is evicted and is built again on the next search.
 */
import MiniSearch, { type SearchResult } from 'minisearch';
import { normalizeText } from '../collections/search.js';
import { COLLECTIONS, ENTRIES, type Collection, type Entry } from '../collections/types.js';
import { PEOPLE, type Person } from '../people/people.js';
import type { FamilyState } from '../shared/state.js';
import {
  allDocs,
  collectionDoc,
  docId,
  entryDoc,
  personDoc,
  type ContextDoc,
} from './documents.js';

/** Title matches count this many times a match in the rest of the text. */
export const TITLE_BOOST = 3;

/**
 * How much a prefix match and a typo match count against an exact one (1). MiniSearch's
 * defaults (0.375 and 0.45) rank "dish" (one letter off "dishw") above "dishwasher" (the word
 * being typed); a prefix is the likelier meaning.
 */
const MATCH_WEIGHTS = { prefix: 0.6, fuzzy: 0.25 };

/** Folds each token the way entry search folds text: case, accents, ø/æ/ß and the like. */
function processTerm(term: string): string | null {
  const folded = normalizeText(term);
  return folded.length ? folded : null;
}

/**
 * A small typo is forgiven: one edit from four letters on, two from eight. Shorter words
 * must be exact (or a prefix): a one-letter change of "cat" is another word.
 */
function fuzziness(term: string): number | false {
  if (term.length >= 8) return 2;
  if (term.length >= 4) return 1;
  return false;
}

export interface Hit {
  doc: ContextDoc;
  score: number;
  terms: string[];
}

export class ContextIndex {
  private mini!: MiniSearch<ContextDoc>;
  private docs = new Map<string, ContextDoc>();
  /** The collections as last indexed, to see when a field list or category changed. */
  private collections = new Map<string, Collection>();
  /** The state version the index reflects. */
  version = -1;
  /** How many times the index was built from scratch (for tests and the benchmark). */
  builds = 0;

  constructor(state: FamilyState) {
    this.rebuild(state);
  }

  /** Brings the index up to the state's version. */
  sync(state: FamilyState): void {
    if (this.version === state.version) return;
    const changes = state.changesSince(this.version);
    if (!changes) {
      this.rebuild(state);
      return;
    }
    const touched = new Map<string, { table: string; id: string }>();
    for (const c of changes) touched.set(docId(c.table, c.id), c);
    for (const { table, id } of touched.values()) this.refresh(state, table, id);
    this.version = state.version;
  }

  /** Matching documents, best first (every word must match, as a prefix or with a small typo). */
  search(query: string): Hit[] {
    const results: SearchResult[] = this.mini.search(query, {
      prefix: true,
      fuzzy: fuzziness,
      maxFuzzy: 2,
      combineWith: 'AND',
      boost: { names: TITLE_BOOST },
      weights: MATCH_WEIGHTS,
    });
    const out: Hit[] = [];
    for (const r of results) {
      const doc = this.docs.get(r.id as string);
      if (doc) out.push({ doc, score: r.score, terms: r.terms });
    }
    return out;
  }

  get size(): number {
    return this.docs.size;
  }

  private rebuild(state: FamilyState): void {
    this.mini = new MiniSearch<ContextDoc>({
      fields: ['names', 'text'],
      storeFields: [],
      processTerm,
    });
    this.docs = new Map();
    this.collections = new Map();
    const docs = [...allDocs(state)];
    for (const d of docs) this.docs.set(d.id, d);
    for (const c of state.table<Collection>(COLLECTIONS).values()) this.collections.set(c.key, c);
    this.mini.addAll(docs);
    this.version = state.version;
    this.builds++;
  }

  private put(id: string, doc: ContextDoc | null): void {
    if (!doc) {
      if (this.mini.has(id)) this.mini.discard(id);
      this.docs.delete(id);
      return;
    }
    if (this.mini.has(id)) this.mini.replace(doc);
    else this.mini.add(doc);
    this.docs.set(id, doc);
  }

  private refresh(state: FamilyState, table: string, id: string): void {
    switch (table) {
      case ENTRIES: {
        const e = state.get<Entry>(ENTRIES, id);
        this.put(
          docId(ENTRIES, id),
          e ? entryDoc(state.get<Collection>(COLLECTIONS, e.collectionKey), e) : null,
        );
        return;
      }
      case PEOPLE: {
        const p = state.get<Person>(PEOPLE, id);
        this.put(docId(PEOPLE, id), p ? personDoc(p) : null);
        return;
      }
      case COLLECTIONS: {
        const c = state.get<Collection>(COLLECTIONS, id);
        const before = this.collections.get(id);
        this.put(docId(COLLECTIONS, id), c ? collectionDoc(c) : null);
        if (c) this.collections.set(id, c);
        else this.collections.delete(id);
        // Entries show only the fields their collection defines, and a calendar's entries are
        // events: when either changes, the collection's entries are indexed again.
        if (c && before && (c.fields !== before.fields || c.category !== before.category)) {
          for (const e of state.table<Entry>(ENTRIES).values()) {
            if (e.collectionKey === id) this.put(docId(ENTRIES, e.id), entryDoc(c, e));
          }
        }
        return;
      }
      default:
        // Plans, shares and other tables are not searched here.
        return;
    }
  }
}

const indexes = new WeakMap<FamilyState, ContextIndex>();

/** The family's index, current with its state. */
export function contextIndex(state: FamilyState): ContextIndex {
  let index = indexes.get(state);
  if (!index) indexes.set(state, (index = new ContextIndex(state)));
  else index.sync(state);
  return index;
}
