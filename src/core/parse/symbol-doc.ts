/**
 * A definition's doc comment, from the file's lines and the line the definition starts on alone: so the index keeps
 * no copy of it and rebuilds it from the stored file text when a reader needs it (store/chunk-texts.ts).
 */
import { isCommentLine } from './annotations';

const DOC_MARKERS = /^\s*(\/\*\*?|\*\/|\*|\/\/\/?|#!?|--)\s?/;

/** A comment block immediately above the definition (decorators skipped), or a Python docstring below it. */
export function symbolDoc(lines: readonly string[], lineStart: number): string | undefined {
  const collected: string[] = [];
  let l = lineStart - 1;
  while (l >= 1 && /^\s*(@|#\[)/.test(lines[l - 1]!)) l--;
  while (l >= 1 && isCommentLine(lines[l - 1]!)) {
    collected.unshift(lines[l - 1]!.replace(DOC_MARKERS, '').replace(/\*\/\s*$/, '').trim());
    l--;
  }
  let doc = collected.filter((s) => s.length > 0).join(' ');
  if (!doc) {
    const next = lines[lineStart]?.trim() ?? '';
    const m = /^[rbu]?("""|''')(.*)/.exec(next);
    if (m) {
      const rest = [m[2] ?? ''];
      for (let k = lineStart + 1; k < lineStart + 8 && !rest[rest.length - 1]!.includes(m[1]!) && k <= lines.length; k++) {
        rest.push(lines[k - 1]!.trim());
      }
      doc = rest.join(' ').split(m[1]!)[0]!.trim();
    }
  }
  if (!doc) return undefined;
  return doc.length > 400 ? `${doc.slice(0, 397)}...` : doc;
}
