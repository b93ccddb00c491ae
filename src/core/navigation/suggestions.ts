/** "Did you mean" names for an unknown symbol: edit distance over the index's names, plus containing names. */
import { distance } from 'fastest-levenshtein';
import type { IndexDatabase } from '../store/database';
import type { SymbolQuery } from './symbol-query';

const MAX_SUGGESTIONS = 5;

/**
 * When the name exists but its qualifiers matched nothing, the qualified names it does have; otherwise the closest
 * names by case-insensitive edit distance (within about a third of the name's length), then names containing it.
 */
export function suggestSymbols(db: IndexDatabase, query: SymbolQuery, max = MAX_SUGGESTIONS): string[] {
  if (query.qualifiers.length) {
    const qualified = db.all(
      'SELECT qualified_name AS q, count(*) AS n FROM symbols WHERE lower(name) = ? GROUP BY qualified_name ORDER BY n DESC, q LIMIT ?',
      [query.name.toLowerCase(), max],
    ).map((r) => String(r.q));
    if (qualified.length) return qualified;
  }
  const want = query.name.toLowerCase();
  const budget = Math.max(2, Math.floor(want.length / 3));
  const scored: { name: string; score: number; uses: number }[] = [];
  for (const r of db.all('SELECT name, count(*) AS n FROM symbols GROUP BY name')) {
    const name = String(r.name);
    const lower = name.toLowerCase();
    let score: number | undefined;
    if (Math.abs(lower.length - want.length) <= budget) {
      const d = distance(lower, want);
      // Levenshtein counts a swap of two letters as two edits; a typo like that is closer than it says.
      if (d <= budget) score = d - (sortedLetters(lower) === sortedLetters(want) ? 0.5 : 0) - (lower[0] === want[0] ? 0.25 : 0);
    }
    // A name that contains the query (or is contained in it) is a fair guess too, after the close spellings.
    if (score === undefined && want.length >= 3 && (lower.includes(want) || (lower.length >= 4 && want.includes(lower)))) {
      score = budget + 1 + Math.abs(lower.length - want.length) / 100;
    }
    if (score !== undefined) scored.push({ name, score, uses: Number(r.n) });
  }
  scored.sort((a, b) => a.score - b.score || b.uses - a.uses || a.name.localeCompare(b.name));
  return scored.slice(0, max).map((s) => s.name);
}

function sortedLetters(s: string): string {
  return [...s].sort().join('');
}
