/**
 * Plain text for chat and language-model tool answers, made from engine DTOs. Workspace text is escaped so a doc or
 * a symbol cannot inject Markdown (links, images, HTML) into the chat view. No 'vscode' import (tested in Node).
 */
import type { DefinitionsResult, ReferencesResult, RepoMap, WhyResult, WhyTreeNode } from '../../core';

/** Backslash-escapes Markdown punctuation and neutralises HTML angle brackets. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|>~]/g, (c) => `\\${c}`).replace(/</g, '&lt;');
}

/** A code span that holds any text (the fence grows past the longest backtick run inside). */
export function codeSpan(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${longest ? ' ' : ''}${text.replace(/\n/g, ' ')}${longest ? ' ' : ''}${fence}`;
}

export function codeBlock(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${text}\n${fence}`;
}

export function definitionsText(r: DefinitionsResult): string {
  if (!r.results.length) return `No definition of ${codeSpan(r.query)}.`;
  return r.results.map((d, i) => `${i + 1}. ${codeSpan(`${d.path}:${d.line}`)} ${escapeMarkdown(d.kind)} ${codeSpan(d.preview)} (${d.source})`).join('\n');
}

export function referencesText(r: ReferencesResult): string {
  const head = `${r.total} ${r.total === 1 ? 'reference' : 'references'} to ${codeSpan(r.definition.qualifiedName)} (${codeSpan(`${r.definition.path}:${r.definition.line}`)}, from ${r.source})`
    + (r.otherDefinitions ? `; ${r.otherDefinitions} other definitions of the name are not included` : '');
  return [head, '', ...r.results.map((x) => `- ${codeSpan(`${x.path}:${x.line}`)} ${escapeMarkdown(x.kind)}${x.inSymbol ? ` in ${codeSpan(x.inSymbol)}` : ''}: ${codeSpan(x.preview)}`)].join('\n');
}

function treeLines(nodes: WhyTreeNode[], depth: number, out: string[]): string[] {
  for (const n of nodes) {
    out.push(`${'  '.repeat(depth)}- ${escapeMarkdown(n.edge_kind)} ${codeSpan(n.ref_id)} ${escapeMarkdown(n.kind)}${n.summary ? `: ${escapeMarkdown(n.summary)}` : ''}`);
    treeLines(n.children, depth + 1, out);
  }
  return out;
}

export function whyText(r: WhyResult): string {
  const i = r.impact;
  return [
    `**${escapeMarkdown(r.node.ref_id)}** (${escapeMarkdown(r.node.kind)})${r.node.summary ? `: ${escapeMarkdown(r.node.summary)}` : ''}`,
    '',
    `Impact: ${i.downstream_direct} direct and ${i.downstream_transitive} transitive dependents, doc coverage ${i.doc_coverage} %, ${i.stale_count} stale docs.`,
    '', '**Upstream** (what it depends on):', ...(r.upstream.length ? treeLines(r.upstream, 0, []) : ['- nothing']),
    '', '**Downstream** (what depends on it):', ...(r.downstream.length ? treeLines(r.downstream, 0, []) : ['- nothing']),
  ].join('\n');
}

export function mapText(m: RepoMap): string {
  return `Repo map (${m.tokens}/${m.maxTokens} tokens, ${m.stats.shown} of ${m.stats.candidates} definitions):\n\n${codeBlock(m.text)}`;
}
