/**
 * Response budgets. Every tool answer is one JSON text block whose size is counted with the engine's tokenizer
 * (src/core/tokens.ts). A page holds as many items as fit in `max_tokens`; when items are left out the answer says
 * how many and carries the cursor that continues exactly where it stopped. Pages and objects are cut with the
 * engine's one budget fitter (src/core/budget/fit.ts); what is MCP's own is the JSON: the page envelope, the cursor,
 * and shortening a string or summarising a container when dropping whole items is not enough.
 */
import { countTokens, fill, largestPrefix, shedUntilWithin } from '../core';
import { encodeCursor } from './cursor';
import { ToolError } from './errors';

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
  // A long echo of the request (a 150-word query) may not crowd out the items: it is cut to leave them room.
  const fitted = { ...req, head: fitHead(req, budget) };
  const headTokens = countTokens(JSON.stringify({ ...fitted.head, [req.key]: [] })) + PAGE_RESERVE;
  // Items counted one by one: a page is a prefix of its list, so the first that does not fit ends it.
  let fit = fill(req.items, budget - headTokens, (item, room) => {
    const t = countTokens(JSON.stringify(item)) + 1;
    return t > room ? undefined : t;
  }, { onMiss: 'stop' }).taken.length;
  // Items counted one by one cost a little more than together (the tokenizer merges across `},{`): see if a few
  // more fit when the page is measured whole.
  if (fit > 0) {
    fit = largestPrefix((n) => render(fitted, req.items.slice(0, n), n, false).tokens <= budget, req.items.length, { known: fit, step: Math.ceil(fit / 8) });
  }
  let items = req.items.slice(0, fit);
  let truncated = false;
  if (fit === 0 && req.items.length) {
    // One item bigger than the whole budget: show it shortened rather than nothing (fitHead left it ITEM_FLOOR).
    items = [shrinkToFit(req.items[0]!, budget - headTokens)];
    fit = 1;
    truncated = true;
  }
  let answer = render(fitted, items, fit, truncated);
  let rounds = 0;
  shedUntilWithin(budget, answer.tokens, () => {
    if (!items.length || rounds++ >= 50) return undefined;
    if (items.length > 1) {
      // Counting items one by one can drift by a token at the seams; drop from the end until the whole fits.
      items = items.slice(0, -1);
      fit--;
    } else {
      const before = JSON.stringify(items[0]);
      const target = countTokens(before) - (answer.tokens - budget) - 8;
      const shrunk = target >= 1 ? shrinkToFit(items[0]!, target) : undefined;
      // Its fields cannot be cut shorter (many short fields): no page can show it, whatever the cursor says.
      if (!shrunk || JSON.stringify(shrunk) === before) return undefined;
      items = [shrunk];
      truncated = true;
    }
    answer = render(fitted, items, fit, truncated);
    return answer.tokens;
  });
  if (answer.tokens <= budget || items.length === 0) return { ...answer, shown: items, truncated };
  throw new ToolError('invalid_input', `${req.tool}: not even one of the ${req.key} fits in max_tokens=${clampBudget(req.maxTokens)}${echoNote(req.head)}; raise max_tokens`);
}

/** The page window of a list held whole in memory: the items from `offset`, at most `limit`, with what paging needs. */
export function windowOf<T>(all: readonly T[], offset: number, limit: number): Pick<ListPageRequest<T>, 'items' | 'offset' | 'moreAfter' | 'total'> {
  return { items: all.slice(offset, offset + limit), offset, moreAfter: all.length > offset + limit, total: all.length };
}

/**
 * pageList with the first of `heads` (fullest first) that leaves an item room: a summary beside the list is worth
 * its tokens at the default budget, but at max_tokens=200 the items come first.
 */
export function pageListWithHead<T>(req: Omit<ListPageRequest<T>, 'head'>, heads: readonly Record<string, unknown>[]): ListPage<T> {
  for (const [i, head] of heads.entries()) {
    try {
      return pageList({ ...req, head });
    } catch (e) {
      if (!(e instanceof ToolError) || i === heads.length - 1) throw e;
    }
  }
  return pageList({ ...req, head: {} });
}

/** Least room a page keeps for its items beside the request's echo. */
const ITEM_FLOOR = 32;

/** The page's head, its longest strings cut so that it leaves ITEM_FLOOR tokens for items; invalid_input if it cannot. */
function fitHead<T>(req: ListPageRequest<T>, budget: number): Record<string, unknown> {
  const room = budget - PAGE_RESERVE - ITEM_FLOOR;
  const size = (head: Record<string, unknown>): number => countTokens(JSON.stringify({ ...head, [req.key]: [] }));
  if (size(req.head) <= room) return req.head;
  const cut = shrinkToFit(req.head, room - 4);
  if (size(cut) <= room) return cut;
  throw new ToolError('invalid_input', `${req.tool}: the answer cannot fit in max_tokens=${clampBudget(req.maxTokens)}${echoNote(req.head)}; raise max_tokens`);
}

/** ", beside `query` (1,034 characters)": names the longest field the page echoes from the request. */
function echoNote(head: Record<string, unknown>): string {
  const longest = longestString(head);
  return longest && longest.value.length > 64 ? `, beside \`${longest.name}\` (${longest.value.length.toLocaleString('en-US')} characters; shorten it)` : '';
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

/**
 * A single answer object within `maxTokens` (as asked, less the stamp's room): its longest strings are shortened
 * first; if many short fields still overflow, the largest nested lists and objects are replaced by a count of what
 * they held, then the last fields are dropped. Always fits.
 */
export function fitObject(body: Record<string, unknown>, maxTokens: number | undefined): Answer {
  const budget = contentBudget(maxTokens);
  let text = JSON.stringify(body);
  let tokens = countTokens(text);
  if (tokens <= budget) return { text, tokens };
  const note = { truncated: `shortened to fit max_tokens=${clampBudget(maxTokens)}` };
  const noteTokens = countTokens(JSON.stringify(note)) + 2;
  const fitted = fitWithin(body, budget - noteTokens);
  text = JSON.stringify({ ...fitted, ...note });
  tokens = countTokens(text);
  return { text, tokens };
}

/** A copy of `body` in at most `maxTokens` (when ≥ 2): strings cut, then containers summarised, then fields dropped. */
export function fitWithin(body: Record<string, unknown>, maxTokens: number): Record<string, unknown> {
  let copy = shrinkToFit(body, maxTokens);
  const size = (): number => countTokens(JSON.stringify(copy));
  // Each shed replaces one container by a string or removes one field, so it ends.
  shedUntilWithin(maxTokens, size(), () => {
    const largest = largestContainer(copy);
    if (largest) largest.set(`[${largest.count} ${largest.count === 1 ? 'entry' : 'entries'} left out]`);
    else {
      const keys = Object.keys(copy);
      if (!keys.length) return undefined;
      const { [keys[keys.length - 1]!]: _dropped, ...rest } = copy;
      copy = rest;
    }
    return size();
  });
  return copy;
}

/** A copy of `value` whose longest string fields are cut (marked with an ellipsis) until it fits in `maxTokens`. */
export function shrinkToFit<T>(value: T, maxTokens: number): T {
  let copy = JSON.parse(JSON.stringify(value)) as T;
  // Tokenising a huge string (a minified line) is slow; anything over 32 characters per allowed token is cut
  // to 8 per token before the first count. The exact rounds below finish the job. With the threshold at least 64,
  // a cut string (8 per token plus a marker of at most 26) is under it: each string is cut here at most once,
  // whatever `maxTokens` is (zero or less included).
  const limit = Math.max(1, maxTokens);
  const threshold = Math.max(64, limit * 32);
  for (let longest = longestString(copy); longest && longest.value.length > threshold; longest = longestString(copy)) {
    copy = longest.set(`${longest.value.slice(0, limit * 8)}… [cut ${longest.value.length - limit * 8} chars]`) as T;
  }
  for (let round = 0; round < 12; round++) {
    const tokens = countTokens(JSON.stringify(copy));
    if (tokens <= maxTokens) return copy;
    const longest = longestString(copy);
    if (!longest || longest.value.length < 16) return copy;
    // Cut proportionally to the overshoot, with a margin so a few rounds suffice.
    const keep = Math.max(8, Math.floor(longest.value.length * Math.max(0, 1 - ((tokens - maxTokens) * 1.3) / Math.max(tokens, 1)) - 20));
    if (keep >= longest.value.length) return copy;
    copy = longest.set(`${longest.value.slice(0, keep)}… [cut ${longest.value.length - keep} chars]`) as T;
  }
  return copy;
}

/** The nested array or object (not the root) with the longest JSON, with a setter that replaces it. */
function largestContainer(root: Record<string, unknown>): { count: number; set(v: unknown): void } | undefined {
  let best: { length: number; count: number; holder: Record<string, unknown> | unknown[]; key: string | number } | undefined;
  const visit = (node: Record<string, unknown> | unknown[]): void => {
    for (const [key, v] of Object.entries(node)) {
      if (!v || typeof v !== 'object') continue;
      const length = JSON.stringify(v).length;
      if (!best || length > best.length) best = { length, count: Object.keys(v).length, holder: node, key: Array.isArray(node) ? Number(key) : key };
      visit(v as Record<string, unknown>);
    }
  };
  visit(root);
  const found = best;
  return found && { count: found.count, set: (v) => { (found.holder as Record<string | number, unknown>)[found.key] = v; } };
}

function longestString(root: unknown): { value: string; name: string; set(v: string): unknown } | undefined {
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
  if (typeof root === 'string') return { value: root, name: 'value', set: (v) => v };
  visit(root);
  if (!best) return undefined;
  const found = best;
  return {
    value: found.value,
    name: String(found.key),
    set(v) {
      (found.holder as Record<string | number, unknown>)[found.key] = v;
      return root;
    },
  };
}
