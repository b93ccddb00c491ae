/**
 * Runs the selected sources in parallel and reports each as it settles: answered, skipped because not selected,
 * unavailable here (named, with why), or failed. One source failing never stops the others.
 */
import { EngineError } from '../errors';
import type { TermStats } from './code-retrieval';
import { searchCode } from './sources/code';
import { searchDocs } from './sources/docs';
import { searchGit } from './sources/git';
import { SourceUnavailable, type Candidate, type PathTrace, type SourceContext, type SourceOutput } from './sources/source';
import { searchThreads } from './sources/threads';
import { SOURCE_NAMES, type SourceName, type SourceReport } from './types';

const SEARCH: Record<SourceName, (ctx: SourceContext) => Promise<SourceOutput>> = {
  code: searchCode,
  docs: searchDocs,
  git: searchGit,
  threads: searchThreads,
};

export interface Retrieved {
  candidates: Candidate[];
  stats: TermStats[];
  paths: PathTrace[];
  reports: SourceReport[];
}

/** Yields one report per source as it settles; the last value yielded is followed by the collected result. */
export async function* retrieve(ctx: SourceContext, selected: SourceName[], into: Retrieved): AsyncGenerator<SourceReport> {
  for (const source of SOURCE_NAMES) {
    if (!selected.includes(source)) {
      const report: SourceReport = { source, status: 'skipped', reason: 'not selected', candidates: 0, ms: 0 };
      into.reports.push(report);
      yield report;
    }
  }
  const pending = new Map<SourceName, Promise<{ source: SourceName; report: SourceReport; output?: SourceOutput }>>();
  for (const source of selected) {
    const t0 = ctx.clock.now();
    pending.set(source, SEARCH[source](ctx).then(
      (output) => ({ source, output, report: { source, status: 'ok' as const, candidates: output.candidates.length, ms: ctx.clock.now() - t0 } }),
      (e: unknown) => {
        if (EngineError.is(e, 'cancelled')) throw e;
        // A source that stopped because the question was cancelled reports the cancellation, not its own state.
        if (ctx.signal?.aborted) throw new EngineError('cancelled', 'operation cancelled');
        const unavailable = e instanceof SourceUnavailable;
        if (!unavailable) ctx.logger.warn(`oracle: the ${source} source failed: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
        const reason = e instanceof Error ? e.message : String(e);
        return { source, report: { source, status: unavailable ? 'unavailable' as const : 'failed' as const, reason, candidates: 0, ms: ctx.clock.now() - t0 } };
      },
    ));
  }
  // After one rejects (cancellation) the others are no longer awaited; their rejections must not go unhandled.
  for (const p of pending.values()) p.catch(() => undefined);
  while (pending.size) {
    const settled = await Promise.race(pending.values());
    pending.delete(settled.source);
    into.reports.push(settled.report);
    if (settled.output) {
      into.candidates.push(...settled.output.candidates);
      into.paths.push(...settled.output.paths);
      if (settled.output.stats) into.stats.push(settled.output.stats);
    }
    yield settled.report;
  }
  // Reports in the fixed source order, whatever order they settled in.
  into.reports.sort((a, b) => SOURCE_NAMES.indexOf(a.source) - SOURCE_NAMES.indexOf(b.source));
}

export function parseSources(value: readonly string[] | undefined): SourceName[] {
  if (!value || !value.length) return [...SOURCE_NAMES];
  const out: SourceName[] = [];
  for (const raw of value.flatMap((v) => v.split(','))) {
    const s = raw.trim().toLowerCase();
    if (!s) continue;
    if (!(SOURCE_NAMES as readonly string[]).includes(s)) {
      throw new EngineError('invalid_input', `unknown source "${raw}" (sources: ${SOURCE_NAMES.join(', ')})`, { suggestions: [...SOURCE_NAMES] });
    }
    if (!out.includes(s as SourceName)) out.push(s as SourceName);
  }
  if (!out.length) throw new EngineError('invalid_input', `no source selected (sources: ${SOURCE_NAMES.join(', ')})`);
  return out;
}
