import type { DbFacts } from '../../src/core/context/db-facts';

/**
 * Everything the serving facts answer, as plain data in a fixed order (maps in their own order), so that facts
 * restored, patched or read back compare with a whole read by deepEqual. `uses` adds what the use table answers.
 */
export function factsView(facts: DbFacts, { uses = false } = {}): unknown {
  const ids = [...facts.files.keys()];
  const names = facts.symbolNames;
  return {
    files: [...facts.files.values()],
    byPath: [...facts.byPath.keys()],
    avgChars: facts.avgChars,
    pathFiles: [...facts.pathFiles].map(([t, s]) => [t, [...s]]),
    stemCounts: [...facts.stemCounts],
    idfFiles: facts.idfFiles,
    names,
    definingFiles: [...facts.definingFiles],
    perFile: ids.map((id) => [id, facts.names.namesOf(id), facts.names.linkedNamesOf(id), facts.pathRank(id), ...(uses ? [facts.names.usedNames(id)] : [])]),
    definers: names.map((n) => [n, facts.names.definersOf(n), ...(uses ? [[...facts.names.usersOf(n)]] : [])]),
    chunks: [...facts.chunks.values()].map((c) => [c, facts.chunks.nameLength(c.id), facts.chunks.bodyLength(c.id)]),
    imports: [...facts.imports()].map(([a, s]) => [a, [...s]]),
    columns: facts.fileColumns(),
  };
}
