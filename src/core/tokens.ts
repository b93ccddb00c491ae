/**
 * Token counting for budgets (repo map, context bundles). One tokenizer for the whole engine, so a budget means the
 * same thing everywhere: o200k_base, the encoding of current OpenAI models and a fair proxy for others.
 *
 * Byte-pair encoding is quadratic in the length of one pre-tokenizer piece, and a run of letters (or of punctuation,
 * or of spaces) is one piece however long: an 80 KB identifier took 7.8 s, a 10 MB one never finished. So runs
 * longer than MAX_RUN characters are counted in MAX_RUN-character slices. Text without such runs (all normal prose
 * and code) is counted exactly as before; a long run costs about 2% more tokens than it would whole, which errs on
 * the safe side of a budget.
 */
import type * as Tokenizer from 'gpt-tokenizer';

// Loaded on first use: building the o200k tables costs ~150 ms, which every CLI command would otherwise pay at
// startup. A plain require() (bundled by esbuild) keeps the API synchronous; core has no Node types, hence the
// local declaration.
declare const require: (id: string) => unknown;
let tokenizer: typeof Tokenizer | undefined;

/** Longest run of non-space (or space) characters encoded in one piece; 256 was the fastest slice measured. */
export const MAX_RUN = 256;

function load(): typeof Tokenizer {
  tokenizer ??= require('gpt-tokenizer') as typeof Tokenizer;
  return tokenizer;
}

/** Number of tokens `text` encodes to. Linear in its length, whatever it holds. */
export function countTokens(text: string): number {
  if (!text) return 0;
  const t = load();
  if (text.length <= MAX_RUN) return t.countTokens(text);
  let total = 0;
  for (const piece of boundedPieces(text)) total += t.countTokens(piece);
  return total;
}

/** Tokens of `text` if there are at most `limit`, else false; stops encoding early, so a big text that cannot fit is cheap. */
export function tokensWithin(text: string, limit: number): number | false {
  if (limit < 0) return false;
  if (!text) return 0;
  // A token is at least one UTF-8 byte and a UTF-16 unit at most three: a text this short fits whatever it holds, and
  // a plain count is ~25 % cheaper than the early-stopping encoder (budget fitting asks this for every block).
  if (text.length * 3 <= limit) return countTokens(text);
  const t = load();
  if (text.length <= MAX_RUN) return t.isWithinTokenLimit(text, limit);
  let total = 0;
  for (const piece of boundedPieces(text)) {
    const within = t.isWithinTokenLimit(piece, limit - total);
    if (within === false) return false;
    total += within;
  }
  return total;
}

/**
 * `text` in consecutive pieces, cut only around runs of more than MAX_RUN space or non-space characters, which are
 * sliced into MAX_RUN-character parts (never between the halves of a surrogate pair). Everything else stays whole.
 */
function* boundedPieces(text: string): Generator<string> {
  let pending = 0;
  let runStart = 0;
  let runIsSpace = isSpace(text.charCodeAt(0));
  for (let i = 1; i <= text.length; i++) {
    const space = i < text.length && isSpace(text.charCodeAt(i));
    if (i < text.length && space === runIsSpace) continue;
    if (i - runStart > MAX_RUN) {
      if (runStart > pending) yield text.slice(pending, runStart);
      for (let at = runStart; at < i;) {
        let end = Math.min(i, at + MAX_RUN);
        if (end < i && isLowSurrogate(text.charCodeAt(end))) end++;
        yield text.slice(at, end);
        at = end;
      }
      pending = i;
    }
    runStart = i;
    runIsSpace = space;
  }
  if (pending < text.length) yield text.slice(pending);
}

function isSpace(c: number): boolean {
  if (c === 32 || (c >= 9 && c <= 13)) return true;
  return c > 127 && /\s/.test(String.fromCharCode(c));
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}
