/**
 * The answer Markdown subset as tokens, with no DOM (unit-tested in plain Node): blocks (paragraph, fenced code,
 * heading, quote, list) holding inline tokens (code span, citation `[n]`, link `[text](url)`, bold, italic, text).
 *
 * Linear time in the input, whatever it holds: answers quote workspace text, so a flood of backticks, stars or
 * brackets must not freeze the panel (a backtracking regex took seconds on 2,000 backticks and never finished on
 * 40,000). Code spans follow CommonMark: a run of n backticks closes at the next run of exactly n, else it is text.
 * The other inline forms match as the earlier regex did, left to right, earliest start first, but each test is O(1)
 * against precomputed "next stop character" tables.
 */

export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'code'; code: string }
  | { kind: 'citation'; n: number; raw: string }
  | { kind: 'link'; label: string; url: string; raw: string }
  | { kind: 'strong'; children: Inline[] }
  | { kind: 'em'; children: Inline[] };

/** An indented line under a list item: a quote, or wrapped text. */
export interface Continuation {
  kind: 'quote' | 'line';
  inline: Inline[];
}

export type Block =
  | { kind: 'paragraph'; inline: Inline[] }
  | { kind: 'code'; lang?: string; text: string }
  /** `level` is the number of `#` (1-6). */
  | { kind: 'heading'; level: number; inline: Inline[] }
  | { kind: 'quote'; inline: Inline[] }
  | { kind: 'list'; ordered: boolean; items: Array<{ inline: Inline[]; continuations: Continuation[] }> };

const MAX_LABEL = 500;
const MAX_URL = 2000;

// JavaScript's \s (the set String.prototype.trim removes) and \w, by character code.
function isSpaceCode(c: number): boolean {
  return (c >= 9 && c <= 13) || c === 32 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029
    || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}
const isSpace = (s: string, i: number): boolean => i < s.length && isSpaceCode(s.charCodeAt(i));
const isWord = (s: string, i: number): boolean => {
  const c = s.charCodeAt(i); // NaN outside the string
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
};
const isDigit = (s: string, i: number): boolean => {
  const c = s.charCodeAt(i);
  return c >= 48 && c <= 57;
};

const NEWLINE = 10;
const CLOSE_BRACKET = 93;
const CLOSE_PAREN = 41;

/** next[i] = the first index >= i whose character code is a stop, or text.length: one backward pass. */
function nextStops(text: string, stop: (c: number) => boolean): Int32Array {
  const next = new Int32Array(text.length + 1);
  next[text.length] = text.length;
  for (let i = text.length - 1; i >= 0; i--) next[i] = stop(text.charCodeAt(i)) ? i : next[i + 1]!;
  return next;
}

/** For each backtick run length, the start of every run, in order; a cursor per length finds "the next run of n". */
class BacktickRuns {
  private readonly starts = new Map<number, number[]>();
  private readonly cursor = new Map<number, number>();

  constructor(text: string) {
    for (let i = 0; i < text.length;) {
      if (text[i] !== '`') { i++; continue; }
      let j = i;
      while (text[j] === '`') j++;
      const list = this.starts.get(j - i);
      if (list) list.push(i);
      else this.starts.set(j - i, [i]);
      i = j;
    }
  }

  /** Start of the first run of exactly `n` backticks starting after `from`; queries must come with rising `from`. */
  next(n: number, from: number): number | undefined {
    const list = this.starts.get(n);
    if (!list) return undefined;
    let k = this.cursor.get(n) ?? 0;
    while (k < list.length && list[k]! <= from) k++;
    this.cursor.set(n, k);
    return list[k];
  }
}

/** Inline tokens of one block's text. */
export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  const len = text.length;
  // Built on first use: most texts have no brackets or no emphasis.
  let runs: BacktickRuns | undefined;
  let labelEnd: Int32Array | undefined;
  let urlEnd: Int32Array | undefined;
  let starEnd: Int32Array | undefined;
  let underscoreEnd: Int32Array | undefined;
  let last = 0;
  const emit = (at: number, token: Inline, end: number): number => {
    if (at > last) out.push({ kind: 'text', text: text.slice(last, at) });
    out.push(token);
    last = end;
    return end;
  };

  for (let p = 0; p < len;) {
    const c = text[p]!;
    if (c === '`') {
      let e = p;
      while (text[e] === '`') e++;
      const n = e - p;
      const close = (runs ??= new BacktickRuns(text)).next(n, p);
      p = close === undefined ? e : emit(p, { kind: 'code', code: text.slice(e, close).trim() }, close + n);
      continue;
    }
    if (c === '[') {
      // [n] not followed by "(": a citation marker.
      let d = p + 1;
      while (d < p + 5 && isDigit(text, d)) d++;
      if (d > p + 1 && d <= p + 4 && text[d] === ']' && text[d + 1] !== '(') {
        p = emit(p, { kind: 'citation', n: Number(text.slice(p + 1, d)), raw: text.slice(p, d + 1) }, d + 1);
        continue;
      }
      // [label](url): label without "]" or a newline (1-500 chars), url without ")" or whitespace (0-2000 chars).
      labelEnd ??= nextStops(text, (ch) => ch === CLOSE_BRACKET || ch === NEWLINE);
      const q = labelEnd[p + 1]!;
      if (q > p + 1 && q - p - 1 <= MAX_LABEL && text[q] === ']' && text[q + 1] === '(') {
        urlEnd ??= nextStops(text, (ch) => ch === CLOSE_PAREN || isSpaceCode(ch));
        const r = urlEnd[q + 2]!;
        if (r - q - 2 <= MAX_URL && text[r] === ')') {
          p = emit(p, { kind: 'link', label: text.slice(p + 1, q), url: text.slice(q + 2, r), raw: text.slice(p, r + 1) }, r + 1);
          continue;
        }
      }
      p++;
      continue;
    }
    if (c === '*' || c === '_') {
      const ends = c === '*'
        ? (starEnd ??= nextStops(text, (ch) => ch === 42 || ch === NEWLINE))
        : (underscoreEnd ??= nextStops(text, (ch) => ch === 95 || ch === NEWLINE));
      if (text[p + 1] === c) {
        // **bold** / __bold__: content without the marker or a newline.
        const q = ends[p + 2]!;
        if (q > p + 2 && text[q] === c && text[q + 1] === c) {
          p = emit(p, { kind: 'strong', children: parseInline(text.slice(p + 2, q)) }, q + 2);
          continue;
        }
      } else if (!isWord(text, p - 1) && !(c === '*' && text[p - 1] === '*')) {
        // *italic* / _italic_: not inside a word on either side.
        const q = ends[p + 1]!;
        if (q > p + 1 && text[q] === c && !isWord(text, q + 1)) {
          p = emit(p, { kind: 'em', children: parseInline(text.slice(p + 1, q)) }, q + 1);
          continue;
        }
      }
      p++;
      continue;
    }
    p++;
  }
  if (last < len) out.push({ kind: 'text', text: text.slice(last) });
  return out;
}

/** Leading whitespace length. */
function indent(line: string): number {
  let i = 0;
  while (isSpace(line, i)) i++;
  return i;
}

/** The rest of a line after whitespace from `from`, or undefined when it holds a line separator (U+2028/9). */
function restOfLine(line: string, from: number): string | undefined {
  let i = from;
  while (isSpace(line, i)) i++;
  const rest = line.slice(i);
  return rest.includes('\u2028') || rest.includes('\u2029') ? undefined : rest;
}

/** ```lang or ~~~lang alone on a line. */
function fenceOf(line: string): { marker: string; lang: string } | undefined {
  const t = line.trim();
  const marker = t.slice(0, 3);
  if (marker !== '```' && marker !== '~~~') return undefined;
  const lang = t.slice(3).trim();
  return /^[\w+-]*$/.test(lang) ? { marker, lang } : undefined;
}

/** `#`..`######`, whitespace, text. */
function headingOf(line: string): { level: number; text: string } | undefined {
  let k = 0;
  while (line[k] === '#') k++;
  if (k < 1 || k > 6 || !isSpace(line, k)) return undefined;
  const text = restOfLine(line, k);
  return text === undefined ? undefined : { level: k, text };
}

/** `- item`, `* item`, `+ item`, `1. item`, `1) item` (after any indent). */
function itemOf(line: string): { ordered: boolean; text: string } | undefined {
  const j = indent(line);
  let m = j;
  if (line[j] === '-' || line[j] === '*' || line[j] === '+') m = j + 1;
  else {
    while (m < j + 4 && isDigit(line, m)) m++;
    if (m === j || m > j + 3 || (line[m] !== '.' && line[m] !== ')')) return undefined;
    m++;
  }
  if (!isSpace(line, m)) return undefined;
  const text = restOfLine(line, m);
  return text === undefined ? undefined : { ordered: m - j > 1, text };
}

const isQuote = (line: string): boolean => line.trimStart().startsWith('>');

/** `> text` without the marker and one following space. */
function unquote(line: string): string {
  const s = line.trimStart().slice(1);
  return isSpace(s, 0) ? s.slice(1) : s;
}

/** Blocks of an answer; \r\n and \r count as \n. */
export function parseMarkdown(text: string): Block[] {
  const blocks: Block[] = [];
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const paragraph: string[] = [];
  const flush = (): void => {
    if (paragraph.length) blocks.push({ kind: 'paragraph', inline: parseInline(paragraph.join('\n')) });
    paragraph.length = 0;
  };
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const fence = fenceOf(line);
    if (fence) {
      flush();
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i]!.trim().startsWith(fence.marker); i++) body.push(lines[i]!);
      i++;
      blocks.push({ kind: 'code', ...(fence.lang ? { lang: fence.lang } : {}), text: body.join('\n') });
      continue;
    }
    const heading = headingOf(line);
    if (heading) {
      flush();
      blocks.push({ kind: 'heading', level: heading.level, inline: parseInline(heading.text) });
      i++;
      continue;
    }
    if (isQuote(line)) {
      flush();
      const quoted: string[] = [];
      for (; i < lines.length && isQuote(lines[i]!); i++) quoted.push(unquote(lines[i]!));
      blocks.push({ kind: 'quote', inline: parseInline(quoted.join('\n')) });
      continue;
    }
    const first = itemOf(line);
    if (first) {
      flush();
      const items: Array<{ inline: Inline[]; continuations: Continuation[] }> = [];
      for (; i < lines.length; i++) {
        const it = itemOf(lines[i]!);
        const lead = indent(lines[i]!);
        if (it) {
          items.push({ inline: parseInline(it.text), continuations: [] });
        } else if (lead >= 2 && lead < lines[i]!.length && items.length) {
          // A continuation line (indented) belongs to the item above: quotes under a list item, wrapped text.
          const cont = lines[i]!.trim();
          items[items.length - 1]!.continuations.push(cont.startsWith('>')
            ? { kind: 'quote', inline: parseInline(isSpace(cont, 1) ? cont.slice(2) : cont.slice(1)) }
            : { kind: 'line', inline: parseInline(cont) });
        } else break;
      }
      blocks.push({ kind: 'list', ordered: first.ordered, items });
      continue;
    }
    if (!line.trim()) {
      flush();
      i++;
      continue;
    }
    paragraph.push(line);
    i++;
  }
  flush();
  return blocks;
}
