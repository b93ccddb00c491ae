/**
 * The full-text tokenizer: SQLite FTS4's `simple` one exactly (ext/fts3/fts3_tokenizer1.c), so postings hold the
 * tokens FTS4 held and answers did not change when it was replaced (postings.ts). ASCII characters other than
 * letters and digits delimit tokens (NUL does not: FTS4's table of delimiters starts at 1); every character at or
 * above 0x80 is part of a token (in UTF-8 all of its bytes are); ASCII letters are folded to lower case, nothing else.
 */

/** Per ASCII code: 1 when it delimits tokens. */
const DELIMITS = new Uint8Array(128);
for (let c = 1; c < 128; c++) {
  const alnum = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  DELIMITS[c] = alnum ? 0 : 1;
}

const UPPER_RUN = /[A-Z]+/g;

/** `token` with its ASCII letters in lower case, other characters as they are (FTS4 folds nothing past ASCII). */
export function foldToken(token: string): string {
  return token.replace(UPPER_RUN, (run) => run.toLowerCase());
}

/**
 * Calls `fn` with each token's bounds in `text` (`end` exclusive), in order, and whether it holds an ASCII capital
 * (then foldToken gives the token; otherwise it is the slice as it stands).
 */
export function scanTokens(text: string, fn: (start: number, end: number, upper: boolean) => void): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    let c = text.charCodeAt(i);
    while (c < 128 && DELIMITS[c] === 1) {
      if (++i === n) return;
      c = text.charCodeAt(i);
    }
    const start = i;
    let upper = false;
    do {
      if (c >= 65 && c <= 90) upper = true;
      if (++i === n) break;
      c = text.charCodeAt(i);
    } while (c >= 128 || DELIMITS[c] === 0);
    fn(start, i, upper);
  }
}

/** Calls `fn` with each token of `text`, in order. */
export function eachToken(text: string, fn: (token: string) => void): void {
  scanTokens(text, (start, end, upper) => {
    const token = text.slice(start, end);
    fn(upper ? foldToken(token) : token);
  });
}

/** The tokens of `text`, in order. */
export function tokens(text: string): string[] {
  const out: string[] = [];
  eachToken(text, (t) => out.push(t));
  return out;
}
