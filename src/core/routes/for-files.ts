/** Routes of a set of workspace files, with the index's tree-sitter facts for each file when it has them. */
import type { CodeView } from '../graph/code-view';
import { readTextRel, statRel } from '../graph/workspace-files';
import type { FileSystem } from '../ports';
import { extractRoutes } from './extract';
import type { FileFacts, Route } from './types';

const ROUTE_FILE = /\.(py|pyi|ts|tsx|js|jsx|mjs|cjs|mts|cts|go|java|kt|kts|cs|rb|php|graphql|gql|proto)$/i;
const MAX_FILE_BYTES = 1024 * 1024;

export function factsFor(code: CodeView | undefined, path: string): FileFacts | undefined {
  const file = code?.fileTable().get(path);
  if (!code || !file) return undefined;
  const symbols = code.db.all('SELECT name, kind, name_line, line_start, line_end FROM symbols WHERE file_id = ?', [file.id])
    .map((r) => ({ name: String(r.name), kind: String(r.kind), nameLine: Number(r.name_line), lineStart: Number(r.line_start), lineEnd: Number(r.line_end) }));
  const callLines = new Set(code.db.all("SELECT DISTINCT line FROM refs WHERE file_id = ? AND kind = 'call'", [file.id]).map((r) => Number(r.line)));
  return { symbols, callLines };
}

export async function routesOfFiles(fs: FileSystem, root: string, code: CodeView | undefined, files: readonly string[], limit = 500): Promise<Route[]> {
  const out: Route[] = [];
  for (const path of files) {
    if (out.length >= limit) break;
    if (!ROUTE_FILE.test(path)) continue;
    const stat = await statRel(fs, root, path);
    if (!stat?.isFile || stat.size > MAX_FILE_BYTES) continue;
    const text = await readTextRel(fs, root, path);
    if (text === undefined) continue;
    out.push(...extractRoutes(path, text, factsFor(code, path)));
  }
  return out.slice(0, limit);
}
