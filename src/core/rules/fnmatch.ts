/**
 * Python's `fnmatch.fnmatch` on POSIX, as beadloom matches `forbid_import` and `exempt` globs: the whole string must
 * match, `*` matches any run of characters including `/`, `?` any one character, `[seq]` and `[!seq]` a character
 * class, and an unclosed `[` is a literal. (picomatch differs: its `*` stops at `/` and `[!…]` is not a negation.)
 */
import { escapeRegExp } from '../strings';

const cache = new Map<string, RegExp>();

export function fnmatch(name: string, pattern: string): boolean {
  let re = cache.get(pattern);
  if (!re) {
    re = new RegExp(`^(?:${translate(pattern)})$`, 's');
    cache.set(pattern, re);
  }
  return re.test(name);
}

/** CPython's `fnmatch.translate`, without its `\Z` wrapper. */
export function translate(pattern: string): string {
  let out = '';
  let i = 0;
  const n = pattern.length;
  while (i < n) {
    const c = pattern[i++]!;
    if (c === '*') {
      out += '.*';
      while (pattern[i] === '*') i++;
    } else if (c === '?') {
      out += '.';
    } else if (c === '[') {
      let j = i;
      if (pattern[j] === '!') j++;
      if (pattern[j] === ']') j++;
      while (j < n && pattern[j] !== ']') j++;
      if (j >= n) {
        out += '\\[';
        continue;
      }
      let body = pattern.slice(i, j);
      i = j + 1;
      if (!body) {
        out += '(?!)';
        continue;
      }
      if (body === '!') {
        out += '.';
        continue;
      }
      body = body.replace(/\\/g, '\\\\');
      if (body[0] === '!') body = `^${body.slice(1)}`;
      else if (body[0] === '^') body = `\\${body}`;
      out += `[${body.replace(/[[\]]/g, '\\$&')}]`;
    } else {
      out += escapeRegExp(c);
    }
  }
  return out;
}
