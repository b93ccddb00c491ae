/**
 * The terms a write batch collects postings for, found by a token's place in the text it was read from: a hash of
 * its characters, then a comparison in place. A token already seen costs no string; a Map keyed by token needed a
 * new string per token (sliced, hashed, then garbage): that was most of the postings' write time at 10k files.
 */
import { TermBuffer } from './postings-codec';

/** A term's postings being collected, with its hits in the chunk being added (`chunk`). */
export class CollectingTerm extends TermBuffer {
  chunk = 0;
  name = 0;
  path = 0;
  body = 0;
  constructor(readonly text: string, readonly hash: number) {
    super();
  }
}

function hashOf(text: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h | 0;
}

export class TermTable {
  /** Terms in the order they came. */
  readonly list: CollectingTerm[] = [];
  /** Open addressing: a term's place in `list` plus one, 0 when empty. */
  private slots = new Int32Array(1 << 12);

  /** The term `text[start, end)`, made when new (`fresh` then gets it). */
  get(text: string, start: number, end: number, fresh: (term: CollectingTerm) => void): CollectingTerm {
    const hash = hashOf(text, start, end);
    const length = end - start;
    const mask = this.slots.length - 1;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const k = this.slots[at]!;
      if (k === 0) break;
      const term = this.list[k - 1]!;
      if (term.hash === hash && term.text.length === length && text.startsWith(term.text, start)) return term;
    }
    const term = new CollectingTerm(text.slice(start, end), hash);
    this.list.push(term);
    if (2 * this.list.length > this.slots.length) this.grow();
    else this.place(term, this.list.length);
    fresh(term);
    return term;
  }

  private place(term: CollectingTerm, k: number): void {
    const mask = this.slots.length - 1;
    let at = term.hash & mask;
    while (this.slots[at] !== 0) at = (at + 1) & mask;
    this.slots[at] = k;
  }

  private grow(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    this.list.forEach((term, i) => this.place(term, i + 1));
  }
}
