/** Repo map, search results and lint reports. */
import type { LintReport, RepoMap, SearchHit } from '../../src/protocol/webview';
import { h } from '../dom';
import { openPath, send } from '../host';
import { card, details } from './card';
import { pathLink } from './paths';

export function mapCard(m: RepoMap): HTMLElement {
  const defs = m.files.reduce((n, f) => n + f.symbols.length, 0);
  return card('map', 'map', `Repo map${m.scope ? ` of ${m.scope}` : ''}`,
    h('p', { class: 'meta' }, `The ${m.files.length} most referenced files and ${defs} of their definitions (of ${m.stats.filesIndexed} files indexed).`),
    h('ul', { class: 'files paths' }, ...m.files.map((f) => h('li', {}, pathLink(f.path, () => openPath(f.path)),
      h('ul', {}, ...f.symbols.map((s) => h('li', {}, pathLink(`${s.line}`, () => openPath(f.path, s.line)), ' ', h('code', { class: 'sig', title: s.signature }, s.signature))))))),
    h('vscode-collapsible', { heading: 'As text' }, h('pre', { class: 'code' }, m.text)),
    details([['Size', `${m.tokens} of ${m.maxTokens} tokens`], ['Definitions shown', `${m.stats.shown} of ${m.stats.candidates}`]]));
}

export function searchCard(query: string, hits: SearchHit[]): HTMLElement {
  return card('search', 'search', `Search: ${query}`,
    hits.length ? h('ul', { class: 'hits paths' }, ...hits.map((x) => h('li', {},
      pathLink(`${x.path}:${x.line}`, () => openPath(x.path, x.line, x.endLine)),
      x.symbol ? h('span', {}, ` ${x.kind} ${x.symbol}`) : null, h('pre', { class: 'code' }, x.snippet)))) : h('p', { class: 'meta' }, 'No matches.'));
}

/** What a graph is and the offer to write a starter one: the empty state of Graph and of Lint. */
export function noGraph(what: string): HTMLElement {
  const write = h('vscode-button', { 'data-testid': 'write-starter-graph', title: 'Propose a graph from the index and open it for editing' }, 'Write a starter graph');
  write.addEventListener('click', () => send({ type: 'writeStarterGraph' }));
  return h('div', { class: 'empty-state', 'data-testid': 'no-graph' },
    h('p', {}, `This workspace has no architecture graph yet, so there is ${what}.`),
    h('p', { class: 'meta' }, 'A graph names the parts of the system (services, domains, features), what each part is for, which code and docs belong to it, '
      + 'and how the parts depend on each other. Bundles, why-trees and lint rules build on it. It lives in .context-oracle/graph/*.yml.'),
    h('p', { class: 'meta' }, 'Context Oracle can propose one from the index (folders and packages as nodes, imports as edges) for you to edit.'),
    write);
}

export function lintCard(r: LintReport): HTMLElement {
  const s = r.summary;
  const body = !s.graph_files.length && !r.violations.length ? noGraph('nothing to check')
    : !s.rules_evaluated && !r.violations.length
      ? h('p', { 'data-testid': 'no-rules' }, 'The graph declares no rules, so nothing was checked. Add rules (deny, require, check) to a graph file or .context-oracle/rules.yml.')
      : r.violations.length ? h('ul', { class: 'violations' }, ...r.violations.map((v) => h('li', { class: v.severity },
        h('span', { class: `codicon codicon-${v.severity === 'error' ? 'error' : 'warning'}` }), ' ',
        v.file ? pathLink(`${v.file}${v.line ? `:${v.line}` : ''}`, () => openPath(v.file!, v.line)) : null,
        ` ${v.message} `, h('span', { class: 'meta' }, `[${v.rule}]`))))
        : h('p', { 'data-testid': 'no-violations' }, `No violations: ${s.rules_evaluated} rule${s.rules_evaluated === 1 ? '' : 's'} checked.`);
  return card('lint', 'checklist', 'Architecture lint',
    s.graph_files.length ? h('p', { class: 'meta' }, `${s.errors} errors, ${s.warnings} warnings${s.code_indexed ? '' : ' (no index yet: rules about code were skipped)'}`) : null,
    body,
    details([['Graph', `${s.nodes} nodes, ${s.edges} edges`], ['Rules checked', String(s.rules_evaluated)], ['Graph files', s.graph_files.join(', ') || 'none'],
      ['Rule files', s.rule_files.join(', ') || 'none']]));
}
