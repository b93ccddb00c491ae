/**
 * Cutting excerpts out of file lines: the head of a definition, the window of a long chunk or section that holds
 * most of the question, or the lines around one reference. Each excerpt names the line it quotes, which is what
 * the citation is later checked against.
 */
import { lineScore, type TermWeights } from './lexical';

export interface Excerpt {
  /** 1-based, inclusive. */
  line: number;
  endLine: number;
  text: string;
  /** The most telling line of the excerpt, trimmed: the text a citation promises the file holds. */
  quote: string;
}

/** Longest excerpt of a doc section or of top-level code. */
export const MAX_EXCERPT_LINES = 14;
const WINDOW_LINES = 10;
/** A definition up to this long is cited whole; a longer one by the window of it that holds most of the question. */
export const MAX_DEFINITION_LINES = 40;
const DEFINITION_WINDOW = 30;
const MAX_SCAN = 400;
const MAX_QUOTE = 160;

function clampRange(lines: string[], from: number, to: number): [number, number] {
  const first = Math.max(1, Math.min(from, lines.length));
  return [first, Math.max(first, Math.min(to, lines.length))];
}

function build(lines: string[], from: number, to: number, quoteLine: number): Excerpt {
  const [a, b] = clampRange(lines, from, to);
  const slice = lines.slice(a - 1, b).map((l) => l.trimEnd());
  let q = Math.min(Math.max(quoteLine, a), b);
  // A blank or brace-only line promises nothing; quote the first line with words instead.
  if (!/[A-Za-z0-9]/.test(lines[q - 1] ?? '')) {
    const idx = slice.findIndex((l) => /[A-Za-z0-9]/.test(l));
    q = idx >= 0 ? a + idx : q;
  }
  return { line: a, endLine: b, text: slice.join('\n'), quote: (lines[q - 1] ?? '').trim().slice(0, MAX_QUOTE) };
}

/** The start of a definition: its signature and the first lines of its body. */
export function headExcerpt(lines: string[], line: number, endLine: number): Excerpt {
  return build(lines, line, Math.min(endLine, line + MAX_EXCERPT_LINES - 1), line);
}

/** A reference and the lines either side of it. */
export function aroundExcerpt(lines: string[], line: number, radius = 1): Excerpt {
  return build(lines, line - radius, line + radius, line);
}

/**
 * A definition's own range, bounded: whole up to MAX_DEFINITION_LINES, else the DEFINITION_WINDOW lines of it that
 * hold most of the question (a fixed head would stop before the lines that do the work).
 */
export function definitionExcerpt(lines: string[], line: number, endLine: number, tw: TermWeights): Excerpt {
  return bestWindowExcerpt(lines, line, endLine, tw, MAX_DEFINITION_LINES, DEFINITION_WINDOW);
}

/** The whole range when short, else the window of it holding most of the question's weighted terms. */
export function bestWindowExcerpt(lines: string[], line: number, endLine: number, tw: TermWeights, maxLines = MAX_EXCERPT_LINES, windowLines = WINDOW_LINES): Excerpt {
  // A file-level chunk can span thousands of lines; the window is looked for in its first MAX_SCAN.
  const [a, b] = clampRange(lines, line, Math.min(endLine, line + MAX_SCAN - 1));
  const scores: number[] = [];
  for (let i = a; i <= b; i++) scores.push(lineScore(lines[i - 1] ?? '', tw));
  const best = (from: number, to: number): number => {
    let at = from;
    for (let i = from; i <= to; i++) if (scores[i - a]! > scores[at - a]!) at = i;
    return at;
  };
  if (b - a + 1 <= maxLines) return build(lines, a, b, best(a, b));
  let start = a;
  let sum = 0;
  for (let i = a; i < a + windowLines; i++) sum += scores[i - a]!;
  let top = sum;
  for (let s = a + 1; s + windowLines - 1 <= b; s++) {
    sum += scores[s + windowLines - 1 - a]! - scores[s - 1 - a]!;
    if (sum > top) { top = sum; start = s; }
  }
  // A window at the very top keeps the signature in view; otherwise start one line before the first hit.
  return build(lines, start, start + windowLines - 1, best(start, start + windowLines - 1));
}
