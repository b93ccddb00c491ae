/**
 * File-level neighbours through the reference graph: a file is close to the files whose symbols it uses and to
 * the files that use its symbols. A name defined in many files links each of them weakly (1 / files defining it).
 */
import type { IndexDatabase } from '../store/database';
import { dbFacts } from './db-facts';
import { topSlots } from './top-slots';

/** Files whose edges are kept in memory per index state. */
const EDGE_CACHE_FILES = 5000;
/** Edge weight of an import link, in units of "one uniquely defined name used". */
const IMPORT_WEIGHT = 1;
/** Neighbours kept per source file. */
const MAX_NEIGHBOURS = 20;

export function fileEdges(db: IndexDatabase, sources: number[]): Map<number, Map<number, number>> {
  const facts = dbFacts(db);
  const defs = facts.definingFiles;
  const out = new Map<number, Map<number, number>>();
  // One source's weights by target file id, reused for the next (a common name links thousands of files).
  const raw = new Weights(facts.fileColumns().relLength.length);
  // The users of every name the new sources define, read together.
  facts.names.readUsers(sources.filter((s) => !facts.edges.has(s)).flatMap((s) => facts.names.linkedNamesOf(s)));
  for (const source of sources) {
    // Edges depend only on the index, so they are kept with its facts: a warm session computes each file's once.
    const known = facts.edges.get(source);
    if (known) {
      out.set(source, known);
      continue;
    }
    // A name's weight, once per name: a common name has thousands of users.
    const weightOf = (name: string): number => 1 / Math.max(1, defs.get(name) ?? 1);
    // Who defines and who uses a name come from the in-memory name index: the joins they replace walked every
    // reference to a common name (`get`: thousands) for every candidate file.
    // Callees: definitions elsewhere of names this file uses (names it defines itself are local).
    const own = new Set(facts.names.namesOf(source));
    for (const name of facts.names.usedNames(source)) {
      if (own.has(name)) continue;
      const w = weightOf(name);
      for (const target of facts.names.definersOf(name)) if (target !== source) raw.add(target, w);
    }
    // Callers: files that use names this file defines.
    for (const name of facts.names.linkedNamesOf(source)) {
      const w = weightOf(name);
      for (const user of facts.names.usersOf(name)) if (user !== source) raw.add(user, w);
    }
    // Imports: a resolved import is as strong a tie as a name used from a file that alone defines it.
    for (const target of facts.imports().get(source) ?? []) raw.add(target, IMPORT_WEIGHT);
    // Equal weights are common (every file using one name of a file weighs the same): ties go by path, never by
    // id, because ids follow indexing history and an index caught up with a checkout must rank as a fresh one.
    const top = topSlots(raw.touched, MAX_NEIGHBOURS, raw.weight, (id) => facts.pathRank(id));
    const max = top.length ? raw.weight[top[0]!]! : 1;
    const edges = new Map(top.map((id) => [id, raw.weight[id]! / max]));
    raw.clear();
    if (facts.edges.size < EDGE_CACHE_FILES) facts.edges.set(source, edges);
    out.set(source, edges);
  }
  return out;
}

/** Weights summed per file id in an array, with the ids touched in first-touch order (a Map's order, without one). */
class Weights {
  weight: Float64Array;
  private seen: Uint8Array;
  readonly touched: number[] = [];

  constructor(size: number) {
    this.weight = new Float64Array(size);
    this.seen = new Uint8Array(size);
  }

  add(id: number, w: number): void {
    if (id >= this.weight.length) {
      const weight = new Float64Array(id + 1);
      weight.set(this.weight);
      this.weight = weight;
      const seen = new Uint8Array(id + 1);
      seen.set(this.seen);
      this.seen = seen;
    }
    if (!this.seen[id]) {
      this.seen[id] = 1;
      this.touched.push(id);
    }
    this.weight[id] += w;
  }

  clear(): void {
    for (const id of this.touched) {
      this.weight[id] = 0;
      this.seen[id] = 0;
    }
    this.touched.length = 0;
  }
}
