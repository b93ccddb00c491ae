/** "Did you mean": case-insensitive prefix matches first, then the closest by Levenshtein distance; at most five. */
import { distance } from 'fastest-levenshtein';

export const MAX_SUGGESTIONS = 5;

export function suggestIds(wanted: string, candidates: Iterable<string>, max = MAX_SUGGESTIONS): string[] {
  const lower = wanted.toLowerCase();
  if (!lower) return [];
  const all = [...candidates];
  const prefix = all
    .filter((c) => { const l = c.toLowerCase(); return l.startsWith(lower) || (l.length >= 3 && lower.startsWith(l)); })
    .sort((a, b) => a.length - b.length || a.localeCompare(b));
  const threshold = Math.max(Math.floor(wanted.length / 2), 3);
  const close = all
    .map((c) => ({ c, d: distance(lower, c.toLowerCase()) }))
    .filter((x) => x.d <= threshold)
    .sort((a, b) => a.d - b.d || a.c.localeCompare(b.c))
    .map((x) => x.c);
  return [...new Set([...prefix, ...close])].slice(0, max);
}
