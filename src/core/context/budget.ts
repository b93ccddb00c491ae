/**
 * Token budget fitting with the real tokenizer. Nodes go in best first (named symbols before everything else), in
 * full when they fit, as a signature when only that fits; a method brings its class's signature along. A share of
 * the budget (CALL_SITE_SHARE) is held for call sites and handed back when there are fewer. The assembled text is
 * counted at the end and trimmed until it fits, so the budget is never exceeded whatever the per-block estimates.
 */
import { fill, shedUntilWithin } from '../budget/fit';
import { countTokens, tokensWithin } from '../tokens';
import type { CallSite } from './call-sites';
import { renderContext, type ContextFormatter, type Selected, type ShowMode } from './render';
import type { NodeCandidate } from './select-nodes';
import type { BudgetCut } from './types';

/** Share of the budget held for call sites (MU found signature-only context misleads; usage fixes that). */
export const CALL_SITE_SHARE = 0.2;
/** Characters per token of code, for estimates only (measured 3.2–4.1 on the development repositories). */
const CHARS_PER_TOKEN = 3.6;

export interface Fitted {
  selected: Selected[];
  /** Tokens of a selected node's block as shown. */
  tokensOf(selected: Selected): number;
  sites: CallSite[];
  cut: BudgetCut[];
  text: string;
  tokens: number;
  reserve: number;
}

export function fitContext(
  fmt: ContextFormatter, question: string, nodes: NodeCandidate[], sites: CallSite[], budget: number, languageOf: (path: string) => string,
): Fitted {
  const header = countTokens(fmt.header(question)) + 1;
  const reserve = sites.length ? Math.ceil(budget * CALL_SITE_SHARE) : 0;
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const chosen = new Map<string, Selected>();
  const files = new Set<string>();
  const costs = new Map<string, number>();
  /** Tokens of a node's block (+1 for its line break), counted once per node and mode. */
  const blockCost = (node: NodeCandidate, mode: ShowMode): number => {
    const key = `${mode}\u0000${node.id}`;
    let cost = costs.get(key);
    if (cost === undefined) costs.set(key, (cost = countTokens(fmt.node({ node, mode }, languageOf(node.path))) + 1));
    return cost;
  };
  /** Full size of a node the budget cut: exact when it was counted, else estimated from its length (for explain). */
  const cutCost = (node: NodeCandidate): { tokens: number; estimated?: true } => {
    const known = costs.get(`full\u0000${node.id}`);
    if (known !== undefined) return { tokens: known - 1 };
    return { tokens: Math.ceil(fmt.node({ node, mode: 'full' }, languageOf(node.path)).length / CHARS_PER_TOKEN), estimated: true };
  };
  /**
   * Per node and mode: the largest room its block was found not to fit in (it cannot fit in a smaller one either).
   * Keyed by the node itself: two nodes may share an id (overloads of one qualified name).
   */
  const tooBig = { full: new Map<NodeCandidate, number>(), signature: new Map<NodeCandidate, number>() };
  /** Whether a block fits in `room`, without counting all of a big block that cannot. */
  const fitsIn = (node: NodeCandidate, mode: ShowMode, room: number): boolean => {
    const key = `${mode}\u0000${node.id}`;
    const known = costs.get(key);
    if (known !== undefined) return known <= room;
    // The nodes the first fill left out are offered again: one that did not fit in more room is not counted again.
    if (room <= (tooBig[mode].get(node) ?? -Infinity)) return false;
    const within = tokensWithin(fmt.node({ node, mode }, languageOf(node.path)), room - 1);
    if (within !== false) costs.set(key, within + 1);
    else tooBig[mode].set(node, room);
    return within !== false;
  };
  const fileCost = (path: string): number => (files.has(path) ? 0 : countTokens(fmt.file(path, languageOf(path))) + 1);

  /** Puts `node` (and its class context) in `room`, in full or else as a signature; returns the tokens it took. */
  const placeNode = (node: NodeCandidate, room: number): number | undefined => {
    const parent = node.parentId && !chosen.has(node.parentId) ? byId.get(node.parentId) : undefined;
    const parentCost = parent ? blockCost(parent, 'signature') : 0;
    for (const mode of ['full', 'signature'] as const) {
      if (!fitsIn(node, mode, room - parentCost - fileCost(node.path))) continue;
      const cost = blockCost(node, mode) + parentCost + fileCost(node.path);
      files.add(node.path);
      chosen.set(node.id, { node, mode });
      if (parent) chosen.set(parent.id, { node: parent, mode: 'signature' });
      return cost;
    }
    return undefined;
  };
  const keptSites: CallSite[] = [];
  /** Puts a call site of a chosen node in `room`; the first brings the call sites' header. */
  const placeSite = (s: CallSite, room: number): number | undefined => {
    if (keptSites.includes(s) || !chosen.has(s.calleeId)) return undefined;
    const cost = countTokens(fmt.callSite(s)) + 1 + (keptSites.length ? 0 : countTokens(fmt.callSitesHeader()) + 1);
    if (cost > room) return undefined;
    keptSites.push(s);
    return cost;
  };

  const primary = fill(nodes.filter((n) => n.reason !== 'class context'), budget - reserve, placeNode, { used: header });
  const withSites = fill(sites, budget, placeSite, { used: primary.used });
  // What the call sites did not need goes back to the nodes that waited; their own call sites may then follow.
  const waited = fill(primary.missed, budget, placeNode, { used: withSites.used });
  fill(sites, budget, placeSite, { used: waited.used });
  const cut: BudgetCut[] = waited.missed.map((n) => ({ id: n.id, score: n.score, ...cutCost(n), reason: 'budget' }));
  keptSites.sort((a, b) => sites.indexOf(a) - sites.indexOf(b));
  for (const s of chosen.values()) {
    if (s.mode === 'signature' && s.node.reason !== 'class context') cut.push({ id: s.node.id, score: s.node.score, ...cutCost(s.node), reason: 'trimmed' });
  }

  // Exact count of the assembled text; shed the weakest piece until it fits (block estimates can be a token off).
  let selected = [...chosen.values()];
  let text = renderContext(fmt, question, selected, keptSites, languageOf);
  let tokens = shedUntilWithin(budget, countTokens(text), () => {
    if (!selected.length && !keptSites.length) return undefined;
    if (keptSites.length) keptSites.pop();
    else {
      const weakest = selected.reduce((w, s) => (s.node.score < w.node.score || (s.node.score === w.node.score && s.node.id > w.node.id) ? s : w));
      selected = selected.filter((s) => s !== weakest && s.node.parentId !== weakest.node.id);
      cut.push({ id: weakest.node.id, score: weakest.node.score, tokens: blockCost(weakest.node, weakest.mode) - 1, reason: 'budget' });
    }
    text = renderContext(fmt, question, selected, keptSites.filter((s) => selected.some((x) => x.node.id === s.calleeId)), languageOf);
    return countTokens(text);
  });
  if (tokens > budget) {
    // Not even the header fits: an empty text is the only honest answer within the budget.
    text = '';
    tokens = 0;
  }
  // A node left out on its own may still be shown as the class of a method that fitted.
  const shown = new Map(selected.map((s) => [s.node.id, s.mode]));
  const finalCut = cut.filter((c) => (c.reason === 'budget' ? !shown.has(c.id) : shown.get(c.id) === 'signature'));
  finalCut.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
  return {
    selected, sites: keptSites.filter((s) => selected.some((x) => x.node.id === s.calleeId)), cut: finalCut, text, tokens, reserve,
    tokensOf: (s) => blockCost(s.node, s.mode) - 1,
  };
}
