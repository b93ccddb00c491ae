/**
 * Context assembly within the token budget (an adapter on the shared fitter, src/core/budget/fit.ts): evidence
 * first, best first, each block numbered as it will be cited, a block that does not fit skipped for the next; then
 * a slice of the repo map in what is left of its share. What did not fit is reported for --explain.
 */
import { fill } from '../budget/fit';
import { countTokens } from '../tokens';
import { citationFor } from './citations';
import type { Citation, Evidence } from './types';

export const DEFAULT_BUDGET = 6000;
/** Share of the budget the repo map slice may take. */
export const MAP_SHARE = 0.15;

export interface Assembled {
  evidence: Evidence[];
  citations: Citation[];
  /** The numbered evidence blocks, as the model sees them. */
  blocks: string[];
  map?: string;
  mapTokens: number;
  tokens: number;
  cut: { key: string; tokens: number }[];
}

export function renderBlock(c: Citation, e: Evidence): string {
  const fence = e.text.includes('```') ? '````' : '```';
  return `[${c.n}] ${c.label} — ${c.reason}\n${fence}\n${e.text}\n${fence}`;
}

/** The evidence cut down to the one line it quotes (commits keep their subject line). */
export function narrowToQuote(e: Evidence): Evidence {
  const quote = e.meta?.quote ?? '';
  const lines = e.text.split('\n');
  const at = Math.max(0, lines.findIndex((l) => quote && l.includes(quote)));
  if (e.line === undefined) return { ...e, text: quote || lines[0] || '' };
  return { ...e, line: e.line + at, endLine: e.line + at, text: lines[at] ?? '' };
}

/** `reserved` tokens are already spoken for (the question, the conversation). */
export function assemble(ranked: Evidence[], budget: number, reserved: number, map?: string): Assembled {
  const out: Assembled = { evidence: [], citations: [], blocks: [], mapTokens: 0, tokens: 0, cut: [] };
  const mapTokens = map ? countTokens(map) : 0;
  const mapFits = map !== undefined && mapTokens <= budget * MAP_SHARE;
  const room = budget - reserved - (mapFits ? mapTokens : 0);
  out.tokens = fill(ranked, room, (e, left) => {
    const citation = citationFor(out.citations.length + 1, e);
    const block = renderBlock(citation, e);
    const tokens = countTokens(block);
    if (tokens > left) {
      out.cut.push({ key: e.key, tokens });
      return undefined;
    }
    out.evidence.push(e);
    out.citations.push(citation);
    out.blocks.push(block);
    return tokens;
  }).used;
  // A budget too small for the best block still cites it: narrowed to the line it quotes.
  const best = ranked[0];
  if (!out.evidence.length && best) {
    const narrowed = narrowToQuote(best);
    const citation = citationFor(1, narrowed);
    const block = renderBlock(citation, narrowed);
    out.cut = out.cut.filter((c) => c.key !== best.key);
    out.evidence.push(narrowed);
    out.citations.push(citation);
    out.blocks.push(block);
    out.tokens += countTokens(block);
  }
  if (mapFits && out.evidence.length) {
    out.map = map;
    out.mapTokens = mapTokens;
    out.tokens += mapTokens;
  }
  return out;
}
