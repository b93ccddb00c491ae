/**
 * Response budgets. Every tool answer is one JSON text block whose size is counted with the engine's tokenizer
 * (src/core/tokens.ts). A page holds as many items as fit in `max_tokens`; when items are left out the answer says
 * how many and carries the cursor that continues exactly where it stopped.
 */
import { countTokens } from '../core/tokens';
import { encodeCursor } from './cursor';

/** Default budget of one answer: under the 10k that hosts handle comfortably, with room for tokenizer drift. */
export const DEFAULT_MAX_TOKENS = 8_000;
/** Never exceeded, whatever `max_tokens` says (Claude Code rejects tool results above 25k tokens). */
export const HARD_CAP_TOKENS = 25_000;
/** Below this an envelope and one item cannot both fit. */
export const MIN_MAX_TOKENS = 200;
/** Room in every answer for the freshness stamp the server adds after the tool has run (see stamp.ts). */
export const STAMP_TOKENS = 32;

/** Tokens kept free for the `page` object (cursor and note) whatever it ends up saying. */
const PAGE_RESERVE = 110;

export interface ListPageRequest<T> {
  tool: string;
  fingerprint: string;
  /** Fields shown before the list (query, totals, …). */
  head: Record<string, unknown>;
  /** Name of the list field. */
  key: string;
  /** Candidates of this page in order: the list from `offset`, at most `limit` long. */
  items: T[];
  offset: number;
  /** Items exist after `items` (the limit stopped the page, not the end of the list). */
  moreAfter: boolean;
  /** Length of the whole list, when known. */
  total?: number;
  /** Budget asked for; undefined = the default. */
  maxTokens: number | undefined;
}

export interface Answer {
  /** The JSON text sent to the client. */
  text: string;
  tokens: number;
}

export interface ListPage<T> extends Answer {
  shown: T[];
  /** Items shown with a long field shortened to fit (only ever the first item, when it alone is too big). */
  truncated: boolean;
}

/** The budget asked for, within the allowed range: what messages about the budget quote. */
export function clampBudget(maxTokens: number | undefined): number {
  return Math.min(HARD_CAP_TOKENS, Math.max(MIN_MAX_TOKENS, maxTokens ?? DEFAULT_MAX_TOKENS));
}

/** What a tool's own content may use: the budget asked for, less the room kept for the freshness stamp. */
export function contentBudget(maxTokens: number | undefined): number {
  return clampBudget(maxTokens) - STAMP_TOKENS;
}

export function pageList<T>(req: ListPageRequest<T>): ListPage<T> {
  const budget = contentBudget(req.maxTokens);
  const headTokens = countTokens(JSON.stringify({ ...req.head, [req.key]: [] })) + PAGE_RESERVE;
  let room = budget - headTokens;
  let fit = 0;
  for (const item of req.items) {
    const t = countTokens(JSON.stringify(item)) + 1;
    if (t > room) break;
    room -= t;
    fit++;
  }
  // Items counted one by one cost a little more than together (the tokenizer merges across `},{`): see if a few
  // more fit when the page is measured whole.
  for (let step = Math.max(1, Math.ceil(fit / 8)); step >= 1 && fit > 0; step = Math.floor(step / 2)) {
    while (fit + step <= req.items.length && render(req, req.items.slice(0, fit + step), fit + step, false).tokens <= budget) fit += step;
  }
  let items = req.items.slice(0, fit);
  let truncated = false;
  if (fit === 0 && req.items.length) {
    // One item bigger than the whole budget: show it shortened rather than nothing.
    items = [shrinkToFit(req.items[0]!, budget - headTokens)];
    fit = 1;
    truncated = true;
  }
  for (let round = 0; ; round++) {
    const answer = render(req, items, fit, truncated);
    if (answer.tokens <= budget || items.length === 0 || round > 50) return { ...answer, shown: items, truncated };
    if (items.length > 1) {
      // Counting items one by one can drift by a token at the seams; drop from the end until the whole fits.
      items = items.slice(0, -1);
      fit--;
    } else {
      const own = countTokens(JSON.stringify(items[0]));
      items = [shrinkToFit(items[0]!, own - (answer.tokens - budget) - 8)];
      truncated = true;
    }
  }
}

function render<T>(req: ListPageRequest<T>, items: T[], fit: number, truncated: boolean): Answer {
  const next = req.offset + fit;
  const leftOnPage = req.items.length - fit;
  const more = leftOnPage > 0 || req.moreAfter;
  const body: Record<string, unknown> = { ...req.head, [req.key]: items };
  if (more || req.offset > 0 || truncated) {
    const page: Record<string, unknown> = { offset: req.offset, returned: items.length };
    if (req.total !== undefined) page.total = req.total;
    if (more) {
      const why = leftOnPage > 0
        ? `${leftOnPage} more ${req.key} of this page did not fit in max_tokens=${clampBudget(req.maxTokens)}`
        : `the limit stopped this page; more ${req.key} follow`;
      page.next_cursor = encodeCursor(req.fingerprint, { offset: next });
      page.note = `${why}. Call ${req.tool} again with the same arguments and cursor=next_cursor for ${req.key} from #${next + 1}.`;
    }
    if (truncated) page.truncated = 'the first item alone exceeded max_tokens, so its longest field was shortened; raise max_tokens to see it whole';
    body.page = page;
  }
  const text = JSON.stringify(body);
  return { text, tokens: countTokens(text) };
}

/** A single answer object, cut down to `maxTokens` (as asked, less the stamp's room) by shortening its longest strings. */
export function fitObject(body: Record<string, unknown>, maxTokens: number | undefined): Answer {
  const budget = contentBudget(maxTokens);
  let text = JSON.stringify(body);
  let tokens = countTokens(text);
  if (tokens > budget) {
    text = JSON.stringify({ ...shrinkToFit(body, budget - 40), truncated: `shortened to fit max_tokens=${clampBudget(maxTokens)}` });
    tokens = countTokens(text);
  }
  return { text, tokens };
}

/** A copy of `value` whose longest string fields are cut (marked with an ellipsis) until it fits in `maxTokens`. */
export function shrinkToFit<T>(value: T, maxTokens: number): T {
  let copy = JSON.parse(JSON.stringify(value)) as T;
  // Tokenising a huge string (a minified line) is slow; anything over 32 characters per allowed token is cut
  // to 8 per token before the first count. The exact rounds below finish the job.
  for (let longest = longestString(copy); longest && longest.value.length > maxTokens * 32; longest = longestString(copy)) {
    copy = longest.set(`${longest.value.slice(0, maxTokens * 8)}… [cut ${longest.value.length - maxTokens * 8} chars]`) as T;
  }
  for (let round = 0; round < 12; round++) {
    const tokens = countTokens(JSON.stringify(copy));
    if (tokens <= maxTokens) return copy;
    const longest = longestString(copy);
    if (!longest || longest.value.length < 16) return copy;
    // Cut proportionally to the overshoot, with a margin so a few rounds suffice.
    const keep = Math.max(8, Math.floor(longest.value.length * Math.max(0, 1 - ((tokens - maxTokens) * 1.3) / Math.max(tokens, 1)) - 20));
    copy = longest.set(`${longest.value.slice(0, keep)}… [cut ${longest.value.length - keep} chars]`) as T;
  }
  return copy;
}

function longestString(root: unknown): { value: string; set(v: string): unknown } | undefined {
  let best: { value: string; holder: Record<string, unknown> | unknown[]; key: string | number } | undefined;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach((v, i) => consider(node, i, v));
    else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) consider(node as Record<string, unknown>, k, v);
  };
  const consider = (holder: Record<string, unknown> | unknown[], key: string | number, v: unknown): void => {
    if (typeof v === 'string') {
      if (!best || v.length > best.value.length) best = { value: v, holder, key };
    } else visit(v);
  };
  if (typeof root === 'string') return { value: root, set: (v) => v };
  visit(root);
  if (!best) return undefined;
  const found = best;
  return {
    value: found.value,
    set(v) {
      (found.holder as Record<string | number, unknown>)[found.key] = v;
      return root;
    },
  };
}
