/**
 * Identifier-aware tokens for full-text search: `getUserName` and `get_user_name` both become
 * `get user name`, and the whole identifier is kept too so exact names still match.
 */
export function splitIdentifier(identifier: string): string[] {
  const parts = identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((p) => p.length > 0)
    .map((p) => p.toLowerCase());
  return parts;
}

/**
 * Identifiers repeat heavily within and across files (a module's own names, `getValue`, `self_ref`), so their
 * rewritten form is memoised; the cache is dropped when it grows past a bound to keep worker memory flat (each parse
 * worker holds one: 200k entries held ~40 MB more per worker than 20k and parsed the 9.5k-file corpus no faster).
 */
const rewritten = new Map<string, string>();
const REWRITE_CACHE_MAX = 20_000;

function rewriteIdentifier(id: string): string {
  let out = rewritten.get(id);
  if (out === undefined) {
    const parts = splitIdentifier(id);
    const whole = id.replace(/\$/g, '').toLowerCase();
    out = parts.length > 1 ? `${whole} ${parts.join(' ')}` : whole;
    if (rewritten.size >= REWRITE_CACHE_MAX) rewritten.clear();
    rewritten.set(id, out);
  }
  return out;
}

const WORD = /[\p{L}\p{N}_$]+/gu;

/**
 * Text for the FTS tokenizer: only its words, each identifier followed by its parts when it has more than one.
 * Punctuation and whitespace runs are dropped, which the tokenizer would skip anyway: the stored FTS content
 * shrinks by a third and so does the tokenizing on the indexing thread.
 */
export function searchableText(text: string): string {
  const words = text.match(WORD);
  if (!words) return '';
  let out = '';
  for (const w of words) {
    const rewrittenWord = IDENT_WHOLE.test(w) ? rewriteIdentifier(w) : w.toLowerCase();
    out = out ? `${out} ${rewrittenWord}` : rewrittenWord;
  }
  return out;
}

const IDENT_WHOLE = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
