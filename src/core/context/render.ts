/**
 * Assembles the context text from selected nodes and call sites with a format (mu or markdown): a header, then one
 * section per file (files in order of their strongest node, nodes in line order), then the call sites.
 */
import type { CallSite } from './call-sites';
import type { NodeCandidate } from './select-nodes';

export type ShowMode = 'full' | 'signature';

export interface Selected {
  node: NodeCandidate;
  mode: ShowMode;
}

/** One output format. Every method returns a block of lines without a trailing newline. */
export interface ContextFormatter {
  header(question: string): string;
  file(path: string, language: string): string;
  node(selected: Selected, language: string): string;
  callSitesHeader(): string;
  callSite(site: CallSite): string;
  empty(question: string, reason: string): string;
}

export function renderContext(
  fmt: ContextFormatter, question: string, selected: Selected[], sites: CallSite[], languageOf: (path: string) => string,
): string {
  const parts = [fmt.header(question)];
  const byFile = new Map<string, Selected[]>();
  const order = [...selected].sort((a, b) => b.node.score - a.node.score || a.node.id.localeCompare(b.node.id));
  for (const s of order) {
    if (!byFile.has(s.node.path)) byFile.set(s.node.path, []);
    byFile.get(s.node.path)!.push(s);
  }
  for (const [path, list] of byFile) {
    const language = languageOf(path);
    parts.push(fmt.file(path, language));
    for (const s of list.sort((a, b) => a.node.lineStart - b.node.lineStart || a.node.id.localeCompare(b.node.id))) parts.push(fmt.node(s, language));
  }
  if (sites.length) {
    parts.push(fmt.callSitesHeader());
    for (const site of sites) parts.push(fmt.callSite(site));
  }
  return parts.join('\n');
}

/** Code lines without their shared indentation. */
export function dedent(text: string): string[] {
  const lines = text.replace(/\s+$/, '').split('\n');
  const indents = lines.filter((l) => l.trim()).map((l) => /^[ \t]*/.exec(l)![0].length);
  const cut = indents.length ? Math.min(...indents) : 0;
  return lines.map((l) => l.slice(Math.min(cut, /^[ \t]*/.exec(l)![0].length)).replace(/\s+$/, ''));
}

/** The first line of a signature, trimmed: signatures of long declarations can span lines. */
export function oneLine(signature: string | undefined, fallback: string): string {
  const first = (signature ?? '').split('\n')[0]!.trim();
  return (first || fallback).slice(0, 200);
}
