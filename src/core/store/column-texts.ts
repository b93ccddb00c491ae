/** The three searchable columns of a chunk: its symbol's name, its file's path, and its body (the search text). */
import { searchableText } from '../parse/identifiers';

/** The name column: the symbol's qualified name with its parts split like identifiers. */
export function nameColumn(symbol: string | undefined): string {
  return symbol ? searchableText(symbol.replace(/\./g, ' ')) : '';
}

/** The path column: folder and file names split like identifiers. */
export function pathColumn(path: string): string {
  return searchableText(path.replace(/[/.\\-]/g, ' '));
}
