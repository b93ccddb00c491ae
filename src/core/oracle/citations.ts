/**
 * Numbered citations, each checked before the answer is made: a cited file must exist, hold the cited lines, and
 * hold the quoted text within them. When the file moved its text since it was indexed the quote is looked for
 * nearby and the range follows it; when it is gone the citation is dropped (and counted), never shown wrong.
 */
import type { FileCache } from './file-cache';
import type { Citation, CitationKind, Evidence } from './types';

const KIND: Record<Evidence['source'], CitationKind> = { code: 'code', docs: 'doc', threads: 'thread', git: 'commit' };
/** How far (in lines) a quote may have moved and still be followed. */
const RELOCATE_RADIUS = 200;

export function rangeLabel(path: string, line: number, endLine: number): string {
  return endLine > line ? `${path}:${line}-${endLine}` : `${path}:${line}`;
}

export function citationFor(n: number, e: Evidence): Citation {
  const kind = KIND[e.source];
  const quote = e.meta?.quote ?? '';
  const base = { n, kind, quote, title: e.title, reason: e.reason };
  if (kind === 'commit') return { ...base, label: `commit ${e.commit!.slice(0, 7)}`, commit: e.commit! };
  const range = rangeLabel(e.path!, e.line!, e.endLine!);
  return {
    ...base,
    label: kind === 'thread' ? `thread ${e.thread} (${range})` : range,
    path: e.path!, line: e.line!, endLine: e.endLine!,
    ...(e.thread ? { thread: e.thread } : {}),
  };
}

export type Verdict = { ok: true; moved?: number } | { ok: false; why: string };

/** Checks (and if the text moved, repairs) one evidence item's range against the file on disk. */
export async function verifyEvidence(files: FileCache, e: Evidence): Promise<Verdict> {
  if (e.source === 'git') return e.commit && /^[0-9a-f]{40}$/.test(e.commit) ? { ok: true } : { ok: false, why: 'not a commit id' };
  if (!e.path || e.line === undefined || e.endLine === undefined) return { ok: false, why: 'no location' };
  const lines = await files.lines(e.path);
  if (!lines) return { ok: false, why: `${e.path} cannot be read` };
  const quote = (e.meta?.quote ?? '').trim();
  const holds = (from: number, to: number): boolean =>
    from >= 1 && to <= lines.length && from <= to && (!quote || lines.slice(from - 1, to).some((l) => l.includes(quote)));
  if (holds(e.line, e.endLine)) return { ok: true };
  if (!quote) return { ok: false, why: `${e.path} has ${lines.length} lines` };
  for (let d = 1; d <= RELOCATE_RADIUS; d++) {
    for (const at of [e.line + d, e.line - d]) {
      if (at >= 1 && at <= lines.length && lines[at - 1]!.includes(quote)) {
        const offset = at - e.line;
        const from = Math.max(1, e.line + offset);
        const to = Math.min(lines.length, e.endLine + offset);
        e.line = from;
        e.endLine = Math.max(from, to);
        e.text = lines.slice(e.line - 1, e.endLine).join('\n');
        return { ok: true, moved: offset };
      }
    }
  }
  return { ok: false, why: `${e.path}:${e.line} no longer holds "${quote.slice(0, 60)}"` };
}
