/**
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
