/**
 * Fits ranked entries to a token budget: binary search on how many of the best entries to render, keeping the
 * largest count whose rendering (measured with the real tokenizer) is within budget. Unlike Aider, which accepts a
 * map up to 15% over, the budget is a hard limit.
 */
import { countTokens } from '../tokens';
import { groupEntries, renderGroups, type MapEntry, type RenderedFile } from './render';
import type { MapData } from './types';

export interface Fitted {
  text: string;
  tokens: number;
  groups: RenderedFile[];
  shown: number;
}

export function fitToBudget(data: MapData, entries: MapEntry[], maxTokens: number): Fitted {
  const render = (count: number): Fitted => {
    const groups = groupEntries(data, entries.slice(0, count));
    const text = renderGroups(data, groups);
    return { text, tokens: countTokens(text), groups, shown: count };
  };
  let best: Fitted = { text: '', tokens: 0, groups: [], shown: 0 };
  // Every entry renders at least one token, so more than maxTokens entries can never fit.
  let lo = 1;
  let hi = Math.min(entries.length, Math.floor(maxTokens));
  // Aider's first guess (about 25 tokens per entry) usually lands close, which saves a few rounds.
  let mid = Math.max(lo, Math.min(hi, Math.floor(maxTokens / 25)));
  while (lo <= hi) {
    const attempt = render(mid);
    if (attempt.tokens <= maxTokens) {
      if (attempt.shown > best.shown) best = attempt;
      lo = mid + 1;
    } else hi = mid - 1;
    mid = Math.floor((lo + hi) / 2);
  }
  return best;
}
