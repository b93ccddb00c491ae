/**
 * String helpers for large lists of names and paths.
 *
 * One copy of each equal string. sql.js decodes a fresh string for every value it returns, so a name defined in 30
 * files, or a folder name in 5,000 paths, is otherwise held 30 or 5,000 times by whatever keeps it (~11 MB of such
 * copies in the context facts at 10k files).
 */
export type Intern = (s: string) => string;

/** An interning function backed by its own pool, which lives as long as the function does. */
export function stringPool(): Intern {
  const pool = new Map<string, string>();
  return (s) => {
    const known = pool.get(s);
    if (known !== undefined) return known;
    pool.set(s, s);
    return s;
  };
}

/** `s` matching itself inside a regular expression: every character with a meaning there escaped. */
export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const collator = new Intl.Collator();

/**
 * Each string's place in `localeCompare` order (strings the collator finds equal share one): comparing places sorts
 * like `localeCompare` without collating on every comparison, which dominates a sort where thousands of items tie.
 */
export function localeOrder(strings: readonly string[]): Int32Array {
  const sorted = strings.map((_, i) => i).sort((a, b) => collator.compare(strings[a]!, strings[b]!));
  const order = new Int32Array(strings.length);
  let place = 0;
  sorted.forEach((i, k) => {
    if (k > 0 && collator.compare(strings[sorted[k - 1]!]!, strings[i]!) !== 0) place = k;
    order[i] = place;
  });
  return order;
}

/** Code point order, which is SQLite's BINARY order over UTF-8 (UTF-16 code units differ above U+FFFF). */
export function byCodePoint(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A surrogate stands for a code point above U+FFFF, after every character of the basic plane.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}
