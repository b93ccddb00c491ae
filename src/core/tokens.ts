/**
 * Token counting for budgets (repo map, context bundles). One tokenizer for the whole engine, so a budget means the
 * same thing everywhere: o200k_base, the encoding of current OpenAI models and a fair proxy for others.
 */
import type * as Tokenizer from 'gpt-tokenizer';

// Loaded on first use: building the o200k tables costs ~150 ms, which every CLI command would otherwise pay at
// startup. A plain require() (bundled by esbuild) keeps the API synchronous; core has no Node types, hence the
// local declaration.
declare const require: (id: string) => unknown;
let tokenizer: typeof Tokenizer | undefined;

/** Number of tokens `text` encodes to. */
export function countTokens(text: string): number {
  if (!text) return 0;
  tokenizer ??= require('gpt-tokenizer') as typeof Tokenizer;
  return tokenizer.countTokens(text);
}

/** Tokens of `text` if there are at most `limit`, else false; stops encoding early, so a big text that cannot fit is cheap. */
export function tokensWithin(text: string, limit: number): number | false {
  if (limit < 0) return false;
  if (!text) return 0;
  tokenizer ??= require('gpt-tokenizer') as typeof Tokenizer;
  return tokenizer.isWithinTokenLimit(text, limit);
}
