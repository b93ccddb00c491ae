/**
 * Plain words for what the engine reports in its own terms: bundle warnings (`subgraph cut at max_nodes=20`,
 * `code_symbols lists 100 of 189`, `max_tokens=6000: dropped 3 text_chunks`) and ISO timestamps ("2 minutes ago").
 * No DOM, so it is tested in Node. The engine's words stay available behind the cards' Details toggle.
 */

const UNITS: Array<[number, string]> = [[86_400_000 * 365, 'year'], [86_400_000 * 30, 'month'], [86_400_000 * 7, 'week'], [86_400_000, 'day'], [3_600_000, 'hour'], [60_000, 'minute']];

/** "just now", "5 minutes ago", "yesterday", "3 weeks ago"; "" for an unreadable time. */
export function timeAgo(at: string | number, now: number): string {
  const t = typeof at === 'number' ? at : Date.parse(at);
  if (!Number.isFinite(t)) return '';
  const d = Math.max(0, now - t);
  if (d < 45_000) return 'just now';
  for (const [ms, unit] of UNITS) {
    const n = Math.floor(d / ms);
    if (n >= 1) return unit === 'day' && n === 1 ? 'yesterday' : `${n} ${unit}${n === 1 ? '' : 's'} ago`;
  }
  return 'a minute ago';
}

const SECTIONS: Record<string, string> = {
  text_chunks: 'doc excerpts', code_symbols: 'code symbols', nodes: 'related nodes', edges: 'links', routes: 'routes', tests: 'tests',
  constraints: 'rules', stale_docs: 'stale doc notes',
};

const section = (k: string): string => SECTIONS[k] ?? k.replace(/_/g, ' ');

/** One engine warning in plain words; unknown ones pass through with identifiers made readable. */
function plainWarning(w: string): string {
  let m = /^subgraph cut at max_nodes=(\d+)$/.exec(w);
  if (m) return `Showing the ${m[1]} closest related nodes; more exist.`;
  m = /^code_symbols lists (\d+) of (\d+)$/.exec(w);
  if (m) return `Showing ${m[1]} of ${m[2]} code symbols.`;
  m = /^max_tokens=(\d+): dropped (.*)$/.exec(w);
  if (m) {
    if (m[2] === 'nothing') return '';
    const parts = m[2]!.split(', ').map((p) => { const x = /^(\d+) (\w+)$/.exec(p); return x ? `${x[1]} ${section(x[2]!)}` : p; });
    return `Trimmed to fit the size limit: left out ${parts.join(', ')}.`;
  }
  m = /^the graph has (\d+) load errors? \(see `context-oracle lint`\)$/.exec(w);
  if (m) return `The graph files have ${m[1]} problem${m[1] === '1' ? '' : 's'}; run Lint Architecture to see them.`;
  return w.replace(/`([^`]+)`/g, '$1');
}

/** A bundle's `warning` (parts joined by "; ") as plain sentences, empty ones dropped. */
export function plainWarnings(warning: string | undefined): string[] {
  if (!warning) return [];
  return warning.split('; ').map(plainWarning).filter(Boolean);
}

/** A declared node's ref_id (not a file path, not `path::Symbol`): doc coverage means something only for these. */
export function isDeclaredRef(refId: string): boolean {
  return !refId.includes('::') && !/\.[A-Za-z0-9]+$/.test(refId) && !refId.includes('/');
}
