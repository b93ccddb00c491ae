/** Repo map, search results and lint reports. */
import type { RepoMap, SearchHit } from '../../src/protocol/webview';
import type { LintReport } from '../../src/protocol/webview';
import { actionLink, h } from '../dom';
import { openPath } from '../host';
import { card } from './card';

export function mapCard(m: RepoMap): HTMLElement {
  return card('map', 'map', `Repo map${m.scope ? ` of ${m.scope}` : ''}`,
    h('p', { class: 'meta' }, `${m.tokens}/${m.maxTokens} tokens · ${m.stats.shown} of ${m.stats.candidates} definitions · ${m.stats.filesIndexed} files indexed`),
    h('ul', { class: 'files' }, ...m.files.map((f) => h('li', {}, actionLink(f.path, `Open ${f.path}`, () => openPath(f.path), { class: 'path-link' }),
      h('span', { class: 'meta' }, ` rank ${f.rank}`),
      h('ul', {}, ...f.symbols.map((s) => h('li', {}, actionLink(`${s.line}`, `Open ${f.path}:${s.line}`, () => openPath(f.path, s.line), { class: 'small' }), ` ${s.signature}`)))))),
    h('vscode-collapsible', { heading: 'As text' }, h('pre', {}, m.text)));
}

export function searchCard(query: string, hits: SearchHit[]): HTMLElement {
  return card('search', 'search', `Search: ${query}`,
    hits.length ? h('ul', { class: 'hits' }, ...hits.map((x) => h('li', {},
      actionLink(`${x.path}:${x.line}`, `Open ${x.path}:${x.line}`, () => openPath(x.path, x.line, x.endLine), { class: 'path-link' }),
      x.symbol ? h('span', {}, ` ${x.kind} ${x.symbol}`) : null, h('pre', {}, x.snippet)))) : h('p', { class: 'meta' }, 'No matches.'));
}

export function lintCard(r: LintReport): HTMLElement {
  const s = r.summary;
  return card('lint', 'checklist', 'Architecture lint',
    h('p', { class: 'meta' }, `${s.nodes} nodes, ${s.edges} edges, ${s.rules_evaluated} rules: ${s.errors} errors, ${s.warnings} warnings${s.code_indexed ? '' : ' (no index: code rules skipped)'}`),
    r.violations.length ? h('ul', { class: 'violations' }, ...r.violations.map((v) => h('li', { class: v.severity },
      h('span', { class: `codicon codicon-${v.severity === 'error' ? 'error' : 'warning'}` }), ' ',
      v.file ? actionLink(`${v.file}${v.line ? `:${v.line}` : ''}`, `Open ${v.file}`, () => openPath(v.file!, v.line), { class: 'path-link' }) : null,
      ` ${v.message} `, h('span', { class: 'meta' }, `[${v.rule}]`)))) : h('p', {}, 'No violations.'));
}
