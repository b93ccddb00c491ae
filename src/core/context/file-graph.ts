/**
 * File-level neighbours through the reference graph: a file is close to the files whose symbols it uses and to
 * the files that use its symbols. A name defined in many files links each of them weakly (1 / files defining it).
 */
import type { IndexDatabase } from '../store/database';
import { dbFacts } from './db-facts';

/** Files whose edges are kept in memory per index state. */
const EDGE_CACHE_FILES = 5000;
/** Edge weight of an import link, in units of "one uniquely defined name used". */
const IMPORT_WEIGHT = 1;
/** Neighbours kept per source file. */
const MAX_NEIGHBOURS = 20;
const USE_KINDS = "('call','type','class','implementation')";

export function fileEdges(db: IndexDatabase, sources: number[]): Map<number, Map<number, number>> {
  const facts = dbFacts(db);
  const defs = facts.definingFiles;
  const out = new Map<number, Map<number, number>>();
  for (const source of sources) {
    // Edges depend only on the index, so they are kept with its facts: a warm session computes each file's once.
    const known = facts.edges.get(source);
    if (known) {
      out.set(source, known);
      continue;
    }
    const raw = new Map<number, number>();
    const add = (target: number, name: string): void => {
      if (target === source) return;
      raw.set(target, (raw.get(target) ?? 0) + 1 / Math.max(1, defs.get(name) ?? 1));
    };
    // Callees: definitions elsewhere of names this file uses (names it defines itself are local).
    for (const r of db.all(
      `SELECT DISTINCT s.file_id AS target, s.name AS name FROM refs r JOIN symbols s ON s.name = r.name
       WHERE r.file_id = ? AND r.kind IN ${USE_KINDS} AND s.kind NOT IN ('field','variable')
         AND r.name NOT IN (SELECT name FROM symbols WHERE file_id = ?)`,
      [source, source],
    )) add(Number(r.target), String(r.name));
    // Callers: files that use names this file defines.
    for (const r of db.all(
      `SELECT DISTINCT r.file_id AS target, r.name AS name FROM refs r
       WHERE r.kind IN ${USE_KINDS} AND r.name IN (SELECT name FROM symbols WHERE file_id = ? AND kind NOT IN ('field','variable'))`,
      [source],
    )) add(Number(r.target), String(r.name));
    // Imports: a resolved import is as strong a tie as a name used from a file that alone defines it.
    for (const target of facts.imports().get(source) ?? []) raw.set(target, (raw.get(target) ?? 0) + IMPORT_WEIGHT);
    const top = [...raw.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, MAX_NEIGHBOURS);
    const max = top[0]?.[1] ?? 1;
    const edges = new Map(top.map(([id, w]) => [id, w / max]));
    if (facts.edges.size < EDGE_CACHE_FILES) facts.edges.set(source, edges);
    out.set(source, edges);
  }
  return out;
}
