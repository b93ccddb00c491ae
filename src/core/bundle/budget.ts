/**
 * Token counting and the optional max_tokens budget (an adapter on the shared fitter, src/core/budget/fit.ts).
 * Over budget, content is shed in reverse order of value: the lowest-priority doc chunks, then code symbols from
 * the end, routes, test file lists, constraints, and last the farthest graph nodes (never a focus node). The warning says what was dropped; the count is always exact.
 */
import { shedUntilWithin } from '../budget/fit';
import { countTokens } from '../tokens';
import type { ContextBundle } from './types';

export function bundleTokens(bundle: ContextBundle): number {
  return countTokens(JSON.stringify(bundle));
}

/** `knownTokens` (the count of `full`, when the caller has it) saves tokenising the whole bundle again. */
export function applyBudget(full: ContextBundle, maxTokens: number | undefined, knownTokens?: number): { bundle: ContextBundle; tokens: number } {
  const tokens = knownTokens ?? bundleTokens(full);
  if (maxTokens === undefined || tokens <= maxTokens) return { bundle: full, tokens };
  const b: ContextBundle = structuredClone(full);
  const dropped: Record<string, number> = {};
  const cost = (x: unknown) => countTokens(JSON.stringify(x)) + 1;
  let estimate = tokens;
  const focusIds = new Set([b.focus.ref_id]);
  const steps: Array<[string, () => unknown | undefined]> = [
    ['text_chunks', () => b.text_chunks.pop()],
    ['code_symbols', () => b.code_symbols.pop()],
    ['routes', () => b.routes.pop()],
    ['test_files', () => b.tests?.test_files.pop()],
    ['constraints', () => b.constraints.pop()],
    ['graph nodes', () => {
      const last = b.graph.nodes[b.graph.nodes.length - 1];
      if (!last || focusIds.has(last.ref_id) || b.graph.nodes.length <= 1) return undefined;
      b.graph.nodes.pop();
      const gone = b.graph.edges.filter((e) => e.src === last.ref_id || e.dst === last.ref_id);
      b.graph.edges = b.graph.edges.filter((e) => e.src !== last.ref_id && e.dst !== last.ref_id);
      return [last, gone];
    }],
  ];
  // Room for the warning that says what was dropped.
  const target = maxTokens > 96 ? maxTokens - 48 : maxTokens;
  /** One pass over the steps; estimates per item first (cheap), exact counts of the whole in a second pass. */
  const run = (exact: boolean): void => {
    let step = 0;
    estimate = shedUntilWithin(target, estimate, () => {
      for (; step < steps.length; step++) {
        const [name, drop] = steps[step]!;
        const item = drop();
        if (item === undefined) continue;
        dropped[name] = (dropped[name] ?? 0) + 1;
        estimate = exact ? bundleTokens(b) : estimate - cost(item);
        return estimate;
      }
      return undefined;
    });
  };
  run(false);
  estimate = bundleTokens(b);
  if (estimate > target) run(true);
  const baseWarning = b.warning;
  const annotate = (extra = ''): void => {
    const note = `max_tokens=${maxTokens}: dropped ${Object.entries(dropped).map(([k, n]) => `${n} ${k}`).join(', ') || 'nothing'}${extra}`;
    b.warning = baseWarning ? `${baseWarning}; ${note}` : note;
  };
  annotate();
  let exact = bundleTokens(b);
  if (exact > maxTokens) {
    annotate(' (the focus alone exceeds the budget)');
    exact = bundleTokens(b);
  }
  return { bundle: b, tokens: exact };
}
