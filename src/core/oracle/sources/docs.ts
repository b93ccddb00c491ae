/**
 * The docs source: markdown anywhere in the workspace (or in the configured docs/notes folders), split at headings
 * and ranked by the weighted share of the question each section holds, with a bonus when its headings name it.
 */
import { bestWindowExcerpt } from '../excerpt';
import { textTerms } from '../../context/terms';
import { coverage, stem, termWeights } from '../lexical';
import type { MarkdownFile } from '../markdown-files';
import { SourceUnavailable, type Candidate, type SourceContext, type SourceOutput } from './source';

const MAX_SECTIONS = 12;

export async function searchDocs(ctx: SourceContext): Promise<SourceOutput> {
  const t0 = ctx.clock.now();
  const files = await ctx.markdown.files(ctx.root, ctx.fs, {
    folders: ctx.docsFolders, exclude: ctx.exclude, respectGitignore: ctx.respectGitignore, ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
  if (!files.length) throw new SourceUnavailable(ctx.docsFolders.length ? `no markdown files in ${ctx.docsFolders.join(', ')}` : 'no markdown files in the workspace');
  const terms = ctx.analysis.terms;
  const stats = sectionStats(files, terms);
  const out = rankSections(files, terms, stats.docs, stats.df, ctx.analysis.subject);
  return {
    candidates: out,
    paths: [{ source: 'docs', method: 'docs', candidates: out.length, ms: ctx.clock.now() - t0, note: `${files.length} markdown files, ${stats.docs} sections` }],
    stats,
  };
}

function sectionStats(files: MarkdownFile[], terms: string[]): { docs: number; df: Record<string, number> } {
  const df: Record<string, number> = {};
  let docs = 0;
  for (const f of files) {
    for (const s of f.sections) {
      docs++;
      for (const t of terms) if (s.vocab.has(stem(t))) df[t] = (df[t] ?? 0) + 1;
    }
  }
  return { docs, df };
}

/** Sections ranked by coverage of the question (docs-corpus weights); markdown in test fixtures ranks lower. */
export function rankSections(files: MarkdownFile[], terms: string[], docs: number, df: Record<string, number>, subject?: string): Candidate[] {
  const tw = termWeights(subject ? [...terms, ...textTerms(subject)] : terms, df, docs);
  const scored: { f: MarkdownFile; s: MarkdownFile['sections'][number]; score: number }[] = [];
  for (const f of files) {
    for (const s of f.sections) {
      const c = coverage(s.vocab, tw);
      if (c <= 0) continue;
      const headingHits = coverage(s.trailVocab, tw);
      scored.push({ f, s, score: c + 0.25 * headingHits });
    }
  }
  scored.sort((a, b) => b.score - a.score || a.f.path.localeCompare(b.f.path) || a.s.line - b.s.line);
  const top = scored.slice(0, MAX_SECTIONS);
  const max = top[0]?.score ?? 1;
  return top.map(({ f, s, score }): Candidate => {
    const ex = bestWindowExcerpt(f.lines, s.line, s.endLine, tw);
    return {
      evidence: {
        key: `${f.path}:${ex.line}-${ex.endLine}`,
        source: 'docs',
        method: 'docs',
        path: f.path,
        line: ex.line,
        endLine: ex.endLine,
        title: s.trail || s.heading,
        text: ex.text,
        relevance: 0,
        score: 0,
        reason: `doc section "${s.heading}" covers the question's words`,
        meta: { quote: ex.quote },
      },
      scope: `${s.trail}\n${f.lines.slice(s.line - 1, s.endLine).join('\n')}`,
      pathScore: score / max,
    };
  });
}
