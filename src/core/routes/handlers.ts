/** Finding the function a route decorator or registration belongs to: tree-sitter facts first, text second. */
import type { FileFacts } from './types';

const FN_KINDS = new Set(['function', 'method']);
const DEF_LINE = [
  /^\s*(?:async\s+)?def\s+(\w+)/, // python
  /^\s*(?:export\s+)?(?:async\s+)?function\s*\*?\s*(\w+)/, // js/ts
  /^\s*(?:public|private|protected|static|async|readonly|\s)*(\w+)\s*\([^)]*\)?\s*(?::[^={]*)?\{?\s*$/, // ts class method
  /^\s*(?:(?:public|private|protected|internal|override|suspend|static|final|open)\s+)*fun\s+(\w+)/, // kotlin
  /^\s*(?:(?:public|private|protected|static|final|synchronized|abstract)\s+)*[\w<>[\],.?\s]+\s+(\w+)\s*\(/, // java
];
const SKIP = /^\s*(?:@|#|\/\/|\/\*|\*|$)/;
const RESERVED = new Set(['if', 'for', 'while', 'switch', 'return', 'catch', 'class', 'new', 'function']);

/** The definition right after a decorator at `line`, by the parser's symbols when there are any. */
export function handlerAfter(lines: readonly string[], line: number, facts?: FileFacts): string | undefined {
  if (facts?.symbols.length) {
    let best: FileFacts['symbols'][number] | undefined;
    for (const s of facts.symbols) {
      if (!FN_KINDS.has(s.kind) || s.nameLine <= line || s.nameLine - line > 15) continue;
      if (!best || s.nameLine < best.nameLine) best = s;
    }
    if (best) return best.name;
  }
  for (let i = line; i < Math.min(lines.length, line + 12); i++) {
    const text = lines[i]!;
    if (SKIP.test(text)) continue;
    for (const re of DEF_LINE) {
      const m = re.exec(text);
      if (m && !RESERVED.has(m[1]!)) return m[1];
    }
    return undefined;
  }
  return undefined;
}

/** The handler passed to a registration call: the last plain identifier argument, else `<anonymous>`. */
export function handlerArgument(callText: string): string {
  const args = callText.slice(callText.indexOf('(') + 1);
  const ids = [...args.matchAll(/,\s*(?:[\w.]+\.)?([A-Za-z_$][\w$]*)\s*(?=[,)]|$)/g)].map((m) => m[1]!);
  const last = ids[ids.length - 1];
  return last && !['async', 'function', 'req', 'res', 'ctx', 'c'].includes(last) ? last : '<anonymous>';
}

/** `prefix` + `sub` as one path with single slashes. */
export function joinPaths(prefix: string, sub: string): string {
  if (!prefix) return sub || '/';
  if (!sub) return prefix.startsWith('/') ? prefix : `/${prefix}`;
  const p = `${prefix.replace(/\/+$/, '')}/${sub.replace(/^\/+/, '')}`;
  return p.startsWith('/') ? p : `/${p}`;
}
