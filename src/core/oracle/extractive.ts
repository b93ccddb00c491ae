/**
 * The answer without a model: a direct first line where the evidence allows one (the definition's place, the number
 * of call sites, the latest change), then every piece of evidence with its citation, a one-line reason and the line
 * it quotes. Returned in parts so it streams like a model's answer.
 */
import type { Citation, Evidence, QuestionAnalysis, SourceReport } from './types';

const code = (s: string): string => `\`${s.replace(/`/g, "'")}\``;

function lead(a: QuestionAnalysis, evidence: Evidence[], citations: Citation[]): string {
  const first = (pred: (e: Evidence) => boolean): number => evidence.findIndex(pred);
  const subject = a.subject ? code(a.subject) : 'it';
  if (a.kind === 'definition') {
    const i = first((e) => e.method === 'definition' || (e.meta?.paths ?? '').includes('definition'));
    if (i >= 0) {
      const others = evidence.filter((e, k) => k !== i && e.method === 'definition').length;
      return `${subject} is defined at ${code(citations[i]!.label)} [${citations[i]!.n}]${others ? ` (${others} other definition${others > 1 ? 's' : ''} below)` : ''}.`;
    }
    return `No definition named ${subject} was found; the closest project context:`;
  }
  if (a.kind === 'references') {
    const refs = evidence.filter((e) => e.method === 'references');
    if (refs.length) {
      const files = new Set(refs.map((e) => e.path)).size;
      return `${subject} is used in ${refs.length} place${refs.length > 1 ? 's' : ''} across ${files} file${files > 1 ? 's' : ''}:`;
    }
    return `No use of ${subject} was found; the closest project context:`;
  }
  if (a.kind === 'change') {
    const i = first((e) => e.source === 'git');
    if (i >= 0) {
      const e = evidence[i]!;
      return `The most relevant change is ${code(citations[i]!.label)} "${e.title}" by ${e.meta?.author ?? 'unknown'} on ${(e.meta?.date ?? '').slice(0, 10)} [${citations[i]!.n}]:`;
    }
    return 'No commit history matched; the closest project context:';
  }
  if (a.kind === 'behaviour') return 'What the project says about this behaviour (tests first where there are any):';
  return 'The most relevant project context:';
}

function sourcesLine(sources: SourceReport[]): string {
  return `Sources searched: ${sources.map((s) => (s.status === 'ok' ? `${s.source} (${s.candidates})` : `${s.source} ${s.status}${s.reason ? ` — ${s.reason}` : ''}`)).join('; ')}.`;
}

/** The answer in streamable parts. */
export function extractiveParts(a: QuestionAnalysis, evidence: Evidence[], citations: Citation[], sources: SourceReport[]): string[] {
  const parts = [`${lead(a, evidence, citations)}\n\n`];
  evidence.forEach((e, i) => {
    const c = citations[i]!;
    const quote = c.quote ? `\n   > ${c.quote}` : '';
    parts.push(`${c.n}. [${c.n}] ${code(c.label)} — ${c.reason}${quote}\n`);
  });
  parts.push(`\n${sourcesLine(sources)}\n`);
  return parts;
}

export const NO_CONTEXT_ANSWER = 'No relevant project context found';

export function noContextAnswer(sources: SourceReport[], best: number): string {
  return `${NO_CONTEXT_ANSWER} for this question: nothing in the project held enough of it (best match covered ${Math.round(best * 100)} % of its words).\n${sourcesLine(sources)}\n`;
}

/** The citations list appended to a model's answer, so the answer carries them wherever it is pasted. */
export function citationList(citations: Citation[]): string {
  return `\n\nSources:\n${citations.map((c) => `[${c.n}] ${c.label}${c.kind === 'commit' || c.kind === 'doc' || c.kind === 'thread' ? ` — ${c.title}` : ''}`).join('\n')}\n`;
}
