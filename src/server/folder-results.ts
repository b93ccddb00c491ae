/**
 * Engine results with their paths in the client's form (`folderName/path` when several workspace folders are open;
 * see workspace-folders.ts). Only the fields that are workspace paths or path-based ref_ids change; everything else
 * passes through, so the client reads one shape whatever the number of folders.
 */
import { escapeRegExp, type AskEvent, type AskResult, type Citation, type DefinitionHit, type Evidence, type FreshnessStamp, type ReferenceHit, type SearchHit } from '../core';
import type { FileInsights, ProblemsResult, SymbolAt } from '../protocol/editor';

export type PathMap = (path: string) => string;

/** A citation's label starts with its path (`src/a.ts:3-9`): the label names the folder too. */
export function citationIn(c: Citation, out: PathMap): Citation {
  if (!c.path) return c;
  return { ...c, path: out(c.path), label: c.label.startsWith(c.path) ? out(c.path) + c.label.slice(c.path.length) : c.label };
}

export function evidenceIn(e: Evidence, out: PathMap): Evidence {
  return e.path ? { ...e, path: out(e.path) } : e;
}

export function askResultIn(r: AskResult, out: PathMap): AskResult {
  return { ...r, citations: r.citations.map((c) => citationIn(c, out)), evidence: r.evidence.map((e) => evidenceIn(e, out)) };
}

/** `text` with every whole occurrence of a known path (not inside a longer path) in the client's form. */
export function textIn(text: string, paths: Iterable<string>, out: PathMap): string {
  const list = [...paths].sort((a, b) => b.length - a.length);
  if (!list.length) return text;
  const re = new RegExp(`(?<![\\w./-])(${list.map(escapeRegExp).join('|')})(?![\\w/-]|\\.\\w)`, 'g');
  return text.replace(re, (p) => out(p));
}

/**
 * An ask's events with paths in the client's form, the answer's prose included: it names files as the evidence does
 * (`src/a.ts:3`), and the panel turns those into links. The stream is cut at the last space or backtick of each
 * delta (the rest is held for the next one), so a path is never split between two deltas and always rewritten.
 */
export function askEventsIn(out: PathMap): (event: AskEvent) => AskEvent[] {
  const paths = new Set<string>();
  let held = '';
  let lastMs = 0;
  return (event) => {
    if (event.type === 'evidence' && event.evidence.path) paths.add(event.evidence.path);
    if (event.type === 'answer') {
      const text = held + event.delta;
      const cut = Math.max(text.lastIndexOf(' '), text.lastIndexOf('\n'), text.lastIndexOf('`')) + 1;
      held = text.slice(cut);
      lastMs = event.ms;
      return cut > 0 ? [{ ...event, delta: textIn(text.slice(0, cut), paths, out) }] : [];
    }
    if (event.type === 'done') {
      for (const e of event.result.evidence) if (e.path) paths.add(e.path);
      const rest: AskEvent[] = held ? [{ type: 'answer', delta: textIn(held, paths, out), ms: lastMs }] : [];
      held = '';
      return [...rest, { ...event, result: { ...askResultIn(event.result, out), answer: textIn(event.result.answer, paths, out) } }];
    }
    return [askEventIn(event, out)];
  };
}

export function askEventIn(event: AskEvent, out: PathMap): AskEvent {
  switch (event.type) {
    case 'evidence': return { ...event, evidence: evidenceIn(event.evidence, out), citation: citationIn(event.citation, out) };
    case 'citations': return { ...event, citations: event.citations.map((c) => citationIn(c, out)) };
    case 'done': return { ...event, result: askResultIn(event.result, out) };
    default: return event;
  }
}

export const hitIn = <H extends DefinitionHit | ReferenceHit | SearchHit>(h: H, out: PathMap): H => ({ ...h, path: out(h.path) });

/** Navigation results: the hits, and the definition references and implementations are of. */
export function withHits<R extends { results: Array<DefinitionHit | ReferenceHit>; definition?: DefinitionHit }>(r: R, out: PathMap): R {
  return { ...r, results: r.results.map((h) => hitIn(h, out)), ...(r.definition ? { definition: hitIn(r.definition, out) } : {}) };
}

export function freshnessIn(s: FreshnessStamp, out: PathMap): FreshnessStamp {
  return { ...s, queued: s.queued.map(out) };
}

/** `path::Name` ref_ids start with the file's path. */
const refIn = (ref: string, path: string, out: PathMap): string => (ref.startsWith(path) ? out(path) + ref.slice(path.length) : ref);

export function insightsIn(r: FileInsights, out: PathMap): FileInsights {
  return {
    path: out(r.path),
    symbols: r.symbols.map((s) => ({ ...s, ref_id: refIn(s.ref_id, r.path, out), nodes: s.nodes.map((n) => ({ ...n, staleDocs: n.staleDocs.map(out) })) })),
  };
}

export function symbolAtIn(s: SymbolAt | null, path: string, out: PathMap): SymbolAt | null {
  return s ? { ...s, ref_id: refIn(s.ref_id, path, out) } : s;
}

export function problemsIn(p: ProblemsResult, out: PathMap): ProblemsResult {
  return { staleDocs: p.staleDocs.map((d) => ({ ...d, doc_path: out(d.doc_path), code_path: out(d.code_path) })), violations: p.violations.map((v) => (v.file ? { ...v, file: out(v.file) } : v)) };
}
