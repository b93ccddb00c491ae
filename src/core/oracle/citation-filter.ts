/**
 * A model's prose may cite a number no evidence carries (`[99]`): such a number would send the reader to nothing,
 * so it is removed from the stream as it passes and counted. Deltas arrive in arbitrary pieces, so a `[` not yet
 * closed is held back until the next delta shows what it is.
 */

/**
 * `[3]`, `[2, 5]`, `[1][4]` is two of these. Lists are checked number by number. An index in code (`args[0]`,
 * `f()[1]`) is not a citation: a name or a closing parenthesis before the bracket says so.
 */
const CITATION = /(?<![A-Za-z0-9_$)])\[(\d{1,4}(?:\s*,\s*\d{1,4})*)\]/g;
/** A tail that may still become a citation: `[`, `[1`, `[1,`, `[1, 2`. */
const OPEN_TAIL = /\[(?:\d{1,4}(?:\s*,\s*\d{0,4})*)?$/;

export interface CitationFilter {
  /** The part of `delta` (with what was held back) that is safe to show. */
  push(delta: string): string;
  /** What is still held back, at the end of the stream. */
  flush(): string;
  /** Citation numbers removed, in the order met (a number met twice counts twice). */
  readonly removed: number[];
}

export function createCitationFilter(valid: ReadonlySet<number>): CitationFilter {
  let held = '';
  /** The last character shown: what stands before the next piece, for the lookbehind. */
  let before = '';
  const removed: number[] = [];
  const clean = (piece: string): string => {
    const context = before === '[' ? '' : before;
    const out = (context + piece).replace(CITATION, cite).slice(context.length);
    if (out) before = out[out.length - 1]!;
    return out;
  };
  const cite = (whole: string, list: string): string => {
    const numbers = list.split(',').map((n) => Number(n.trim()));
    const kept = numbers.filter((n) => valid.has(n));
    if (kept.length === numbers.length) return whole;
    removed.push(...numbers.filter((n) => !valid.has(n)));
    return kept.length ? `[${kept.join(', ')}]` : '';
  };
  return {
    removed,
    push(delta) {
      const text = held + delta;
      const open = OPEN_TAIL.exec(text);
      held = open ? text.slice(open.index) : '';
      return clean(open ? text.slice(0, open.index) : text);
    },
    flush() {
      const rest = held;
      held = '';
      return clean(rest);
    },
  };
}

/** The line shown under a model's answer when citations were removed. */
export function removedCitationsNote(removed: number[]): string {
  const distinct = [...new Set(removed)];
  return `\n\n(Removed ${removed.length} citation${removed.length > 1 ? 's' : ''} that match${removed.length > 1 ? '' : 'es'} no evidence: ${distinct.map((n) => `[${n}]`).join(', ')}.)`;
}
