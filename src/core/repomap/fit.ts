/**
 * Fits ranked entries to a token budget (an adapter on the shared fitter, src/core/budget/fit.ts): the largest count
 * of the best entries whose rendering, measured whole with the real tokenizer, is within budget. Unlike Aider,
 * which accepts a map up to 15% over, the budget is a hard limit.
 */
import { largestPrefix } from '../budget/fit';
import { countTokens } from '../tokens';
import { groupEntries, renderGroups, type MapEntry, type RenderedFile } from './render';
import type { MapData } from './types';

export interface Fitted {
  text: string;
  tokens: number;
  groups: RenderedFile[];
  shown: number;
}

export function fitMap(data: MapData, entries: MapEntry[], maxTokens: number): Fitted {
  let best: Fitted = { text: '', tokens: 0, groups: [], shown: 0 };
  const fits = (count: number): boolean => {
    const groups = groupEntries(data, entries.slice(0, count));
    const text = renderGroups(data, groups);
    const tokens = countTokens(text);
    if (tokens > maxTokens) return false;
    best = { text, tokens, groups, shown: count };
    return true;
  };
  // Every entry renders at least one token, so more than maxTokens entries can never fit. Aider's first guess
  // (about 25 tokens per entry) usually lands close, which saves a few rounds.
  largestPrefix(fits, Math.min(entries.length, Math.floor(maxTokens)), { step: maxTokens / 25 });
  return best;
}
