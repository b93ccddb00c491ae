/**
 * The threads source: development threads in `.context-oracle/threads/*.md` (notes and decisions people write and
 * commit), one candidate per entry (`##` section). A thread's id is its file name without `.md`. The oracle's own
 * session logs (`oracle-session-*.md`, when a team commits them there) are not evidence: asked the same question
 * three times, the oracle must not cite its first two answers. They are read only when the question asks about past
 * sessions (ctx.pastSessions). Logged exchanges that found nothing carry a marker and are never evidence.
 */
import { joinPath } from '../../index/paths';
import type { MarkdownFile } from '../markdown-files';
import { stem } from '../lexical';
import { NO_CONTEXT_MARKER, SESSION_LOG_NAME, THREADS_DIR } from '../session-log';
import { rankSections } from './docs';
import { SourceUnavailable, type SourceContext, type SourceOutput } from './source';

export async function searchThreads(ctx: SourceContext): Promise<SourceOutput> {
  const t0 = ctx.clock.now();
  const dirAbs = joinPath(ctx.root, THREADS_DIR);
  const entries = await ctx.fs.readDir(dirAbs).catch(() => undefined);
  if (!entries) throw new SourceUnavailable(`no threads folder (${THREADS_DIR}/)`);
  const files: MarkdownFile[] = [];
  for (const e of entries) {
    if (e.kind !== 'file' || !/\.md$/i.test(e.name)) continue;
    if (!ctx.pastSessions && SESSION_LOG_NAME.test(e.name)) continue;
    const f = await ctx.markdown.file(ctx.root, ctx.fs, `${THREADS_DIR}/${e.name}`);
    if (!f) continue;
    const sections = f.sections.filter((s) => s.level !== 1 && !f.lines.slice(s.line - 1, s.endLine).some((l) => l.includes(NO_CONTEXT_MARKER)));
    if (sections.length) files.push({ ...f, sections });
  }
  if (!files.length) throw new SourceUnavailable(`no threads in ${THREADS_DIR}/`);
  const terms = ctx.analysis.terms;
  let docs = 0;
  const df: Record<string, number> = {};
  for (const f of files) for (const s of f.sections) {
    docs++;
    for (const t of terms) if (s.vocab.has(stem(t))) df[t] = (df[t] ?? 0) + 1;
  }
  const candidates = rankSections(files, terms, docs, df, ctx.analysis.subject).map((c) => {
    const thread = c.evidence.path!.slice(THREADS_DIR.length + 1).replace(/\.md$/i, '');
    const author = /·\s*([^·]+?)\s*(?:·|$)/.exec(c.evidence.title)?.[1];
    return {
      ...c,
      evidence: {
        ...c.evidence, source: 'threads' as const, method: 'threads' as const, thread,
        title: `thread ${thread}: ${c.evidence.title}`,
        reason: `thread entry "${c.evidence.title.split(' › ').pop()}" covers the question's words`,
        meta: { ...c.evidence.meta, ...(author ? { author } : {}) },
      },
    };
  });
  return {
    candidates,
    paths: [{ source: 'threads', method: 'threads', candidates: candidates.length, ms: ctx.clock.now() - t0, note: `${files.length} threads, ${docs} entries` }],
    stats: { docs, df },
  };
}
