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
