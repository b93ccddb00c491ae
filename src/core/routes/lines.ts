/** Helpers shared by the route extractors: which lines may declare a route, and a route record. */
import { MAX_ROUTES_PER_FILE, type FileFacts, type Route } from './types';

const COMMENT = /^\s*(#|\/\/|\/\*|\*)/;

/** Lines that may declare a route: those with a parsed call, or any non-comment line without facts. */
export function candidates(lines: readonly string[], facts: FileFacts | undefined, test: RegExp): number[] {
  const out: number[] = [];
  for (let i = 0; i < lines.length && out.length < MAX_ROUTES_PER_FILE * 4; i++) {
    const line = lines[i]!;
    if (!test.test(line) || COMMENT.test(line)) continue;
    if (facts && facts.callLines.size && !facts.callLines.has(i + 1)) continue;
    out.push(i + 1);
  }
  return out;
}

export function route(method: string, path: string, handler: string | undefined, file: string, line: number, framework: string): Route {
  return { method, path, handler: handler ?? '<anonymous>', file, line, framework };
}
