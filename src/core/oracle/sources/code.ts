/**
 * The code source: exact definitions and references of the question's subject (code navigation) and ranked code for
 * the question as a whole (smart context). Excerpts are cut from the files as they are on disk.
 */
import { shortName } from '../analyse';
import type { CodeHit } from '../code-retrieval';
import { callsIn, docComment, signatureLine } from '../code-facts';
import { aroundExcerpt, bestWindowExcerpt, definitionExcerpt, type Excerpt } from '../excerpt';
import { textTerms } from '../../context/terms';
import { holdsIdentifier, termWeights, type TermWeights } from '../lexical';
import type { RetrievalMethod } from '../types';
import { escapeRegExp } from '../../strings';
import { normalise, SourceUnavailable, type Candidate, type PathTrace, type SourceContext, type SourceOutput } from './source';

const SCOPE_LINES = 200;
/** A line that only imports (JS/TS, Python, Go, Rust, Java): a window of these explains nothing. */
const IMPORT_LINE = /^\s*(?:import\b|from\s+\S+\s+import\b|export\s+(?:\*|\{[^}]*\})\s+from\b|(?:const|let|var)\s+.+=\s*require\(|use\s+[\w:]+|package\s+\w+|#include\b|[}\])]+;?\s*$|[\w\s,{}*]+\}?\s*from\s+['"])/;
const code = (s: string): string => `\`${s.replace(/`/g, "'")}\``;
const MAX_REFERENCES = 25;

export async function searchCode(ctx: SourceContext): Promise<SourceOutput> {
  const { code, analysis: a } = ctx;
  const why = await code.unavailable();
  if (why) throw new SourceUnavailable(why);
  await code.prepare?.(ctx.question);
  const subjectTerms = a.subject ? textTerms(a.subject) : [];
  const stats = await code.termStats([...new Set([...a.terms, ...subjectTerms])]);
  const tw = termWeights(a.terms.length ? a.terms : subjectTerms, stats.df, stats.docs);
  const paths: PathTrace[] = [];
  const run = async (method: RetrievalMethod, note: string, fn: () => Promise<CodeHit[]>): Promise<CodeHit[]> => {
    const t0 = ctx.clock.now();
    const hits = await fn();
    paths.push({ source: 'code', method, candidates: hits.length, ms: ctx.clock.now() - t0, note });
    return hits;
  };
  const subject = a.subject;
  const query = [...new Set([...(subject ? [subject] : []), ...a.terms])].join(' ');
  const [defs, refs, general] = await Promise.all([
    subject
      ? run('definition', 'code navigation', () => exactDefinitions(ctx, subject))
      : Promise.resolve([]),
    subject && a.kind === 'references'
      ? run('references', 'code navigation', () => code.references(subject, MAX_REFERENCES, ctx.signal))
      : Promise.resolve([]),
    query
      ? run('context', 'smart context', () => code.context(ctx.asked, 4000, ctx.signal))
      : Promise.resolve([]),
  ]);
  const candidates: Candidate[] = [];
  // Smart context lists its files best first; full-text hits carry no such order.
  const fileRank = new Map<string, number>();
  for (const hit of general) if (hit.method === 'context' && !fileRank.has(hit.path)) fileRank.set(hit.path, fileRank.size);
  for (const group of [defs, refs, general]) {
    const norm = normalise(group);
    for (const hit of group) {
      const c = await toCandidate(ctx, hit, tw, norm(hit));
      if (c && hit.method === 'context') c.fileRank = fileRank.get(hit.path)!;
      if (c) candidates.push(c);
    }
  }
  return { candidates, paths, stats };
}

/** Code navigation's definitions; a qualifier it cannot place (`req.param`, an instance) falls back to the bare name. */
async function exactDefinitions(ctx: SourceContext, subject: string): Promise<CodeHit[]> {
  const found = await ctx.code.definitions(subject, 5, ctx.signal);
  const bare = shortName(subject);
  return found.length || bare === subject ? found : ctx.code.definitions(bare, 5, ctx.signal);
}

const FOLLOW_RADIUS = 200;

/** The line nearest `line` that names `name` (the line itself first), within FOLLOW_RADIUS. */
function nearestLineNaming(lines: string[], line: number, name: string): number | undefined {
  for (let d = 0; d <= FOLLOW_RADIUS; d++) {
    for (const at of d ? [line + d, line - d] : [line]) {
      if (at >= 1 && at <= lines.length && holdsIdentifier(lines[at - 1]!, name)) return at;
    }
  }
  return undefined;
}

async function toCandidate(ctx: SourceContext, original: CodeHit, tw: TermWeights, pathScore: number): Promise<Candidate | undefined> {
  let hit = original;
  const lines = await ctx.files.lines(hit.path);
  if (!lines || hit.line > lines.length) return undefined;
  const subject = ctx.analysis.subject;
  let ex: Excerpt;
  let reason: string;
  const what = hit.symbol ? `${hit.kind} ${hit.symbol}` : hit.kind === 'file' ? 'top-level code' : hit.kind;
  if (hit.method === 'definition' || hit.method === 'references') {
    // The index may be older than the file: the name must be on the line cited, else follow it or drop the hit.
    const name = shortName(hit.method === 'definition' ? hit.symbol ?? subject ?? '' : subject ?? '');
    const at = name ? nearestLineNaming(lines, hit.focusLine ?? hit.line, name) : hit.focusLine ?? hit.line;
    if (at === undefined) return undefined;
    const shift = at - (hit.focusLine ?? hit.line);
    if (shift) hit = { ...hit, line: hit.line + shift, endLine: Math.min(lines.length, hit.endLine + shift), ...(hit.focusLine ? { focusLine: at } : {}), via: `${hit.via ?? 'index'}, moved ${shift > 0 ? '+' : ''}${shift} lines since indexed` };
  }
  const isDefinition = hit.kind !== 'file' && hit.method !== 'references';
  const doc = isDefinition ? docComment(lines, hit.line) : undefined;
  const calls = isDefinition ? callsIn(lines, hit.line, Math.min(hit.endLine, hit.line + SCOPE_LINES - 1), hit.symbol ? shortName(hit.symbol) : undefined) : [];
  const named = hit.symbol ? code(hit.symbol) : undefined;
  if (hit.method === 'references') {
    ex = aroundExcerpt(lines, hit.focusLine ?? hit.line);
    const focus = lines[(hit.focusLine ?? hit.line) - 1] ?? '';
    const verb = new RegExp(`\\b${escapeRegExp(shortName(subject ?? ''))}\\s*\\(`).test(focus) ? 'calls' : 'uses';
    reason = `${verb} ${code(subject ?? '')}${hit.symbol && hit.symbol !== subject ? ` from ${code(hit.symbol)}` : ''}`;
  } else if (isDefinition) {
    // The definition's own range, bounded: the lines that do the work are cited, not a fixed head.
    ex = definitionExcerpt(lines, hit.line, hit.endLine, tw);
    const defines = `defines ${hit.kind} ${named ?? code(subject ?? '')}`;
    reason = doc ? `${defines}: ${doc}` : calls.length ? `${defines}, which calls ${calls.slice(0, 3).map(code).join(', ')}` : defines;
  } else {
    ex = bestWindowExcerpt(lines, hit.line, hit.endLine, tw);
    const shown = lines.slice(ex.line - 1, ex.endLine).filter((l) => l.trim());
    reason = shown.length && shown.every((l) => IMPORT_LINE.test(l)) ? `the imports of ${code(hit.path)}` : `top-level code of ${code(hit.path)}`;
  }
  const scopeEnd = Math.min(hit.endLine, hit.line + SCOPE_LINES - 1);
  const scopeText = hit.method === 'references' ? ex.text : lines.slice(hit.line - 1, scopeEnd).join('\n');
  return {
    evidence: {
      key: `${hit.path}:${ex.line}-${ex.endLine}`,
      source: 'code',
      method: hit.method,
      path: hit.path,
      line: ex.line,
      endLine: ex.endLine,
      title: what,
      text: ex.text,
      relevance: 0,
      score: 0,
      reason,
      meta: {
        quote: ex.quote, kind: hit.kind, ...(hit.symbol ? { symbol: hit.symbol } : {}),
        ...(doc ? { doc } : {}),
        ...(calls.length ? { calls: calls.join(',') } : {}),
        ...(isDefinition ? { signature: signatureLine(lines, hit.line), defLine: String(hit.line), defEndLine: String(hit.endLine) } : {}),
        ...(reason.startsWith('the imports of') ? { imports: '1' } : {}),
      },
    },
    // The doc comment above a definition says what it does in the question's words: it counts for relevance.
    scope: `${hit.symbol ?? ''} ${hit.path}\n${doc ?? ''}\n${scopeText}`,
    pathScore,
    ...(hit.method === 'definition' || hit.method === 'references' ? { exact: true } : {}),
  };
}
