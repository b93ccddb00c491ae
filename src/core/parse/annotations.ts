/**
 * `oracle:key=value` and `beadloom:key=value` annotations in comments. Several pairs may share one comment:
 * `# beadloom:domain=auth feature=login`. Values run to the next whitespace.
 */
const MARKER = /\b(?:oracle|beadloom):([A-Za-z_][\w.-]*)=(\S+)((?:\s+[A-Za-z_][\w.-]*=\S+)*)/;
const EXTRA = /([A-Za-z_][\w.-]*)=(\S+)/g;
const COMMENT_START = /^\s*(\/\/+|#|\/\*+|\*|--|;+|<!--)/;

export interface AnnotationLine {
  /** 1-based line number. */
  line: number;
  pairs: Record<string, string>;
}

export function isCommentLine(line: string): boolean {
  return COMMENT_START.test(line);
}

function clean(value: string): string {
  return value.replace(/(\*\/|-->)$/, '').replace(/[,;]$/, '');
}

export function parseAnnotationLine(line: string): Record<string, string> | undefined {
  if (!isCommentLine(line)) return undefined;
  const m = MARKER.exec(line);
  if (!m) return undefined;
  const pairs: Record<string, string> = { [m[1]!]: clean(m[2]!) };
  for (const extra of (m[3] ?? '').matchAll(EXTRA)) pairs[extra[1]!] = clean(extra[2]!);
  return pairs;
}

export function findAnnotations(lines: readonly string[]): AnnotationLine[] {
  const found: AnnotationLine[] = [];
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!;
    if (!text.includes('oracle:') && !text.includes('beadloom:')) continue;
    const pairs = parseAnnotationLine(text);
    if (pairs) found.push({ line: i + 1, pairs });
  }
  return found;
}

/**
 * Whether the annotation at `annotationLine` is attached to a definition starting at `defLine`: every line in
 * between is a comment, a decorator/attribute, or part of the same comment block. A blank line detaches it.
 */
export function isAttached(lines: readonly string[], annotationLine: number, defLine: number): boolean {
  if (annotationLine >= defLine) return false;
  for (let l = annotationLine + 1; l < defLine; l++) {
    const text = lines[l - 1] ?? '';
    if (text.trim() === '') return false;
    if (!isCommentLine(text) && !/^\s*(@|#\[)/.test(text)) return false;
  }
  return true;
}
