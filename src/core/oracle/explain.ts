/** --explain: every retrieval path, the raw candidates with scores, rerank decisions, the budget cut, index freshness. */
import type { Assembled } from './budget';
import type { CodeRetrieval } from './code-retrieval';
import type { ConversationView } from './conversation';
import type { FileCache } from './file-cache';
import { RELEVANCE_CUTOFF, type Ranked } from './rank';
import type { Candidate, PathTrace } from './sources/source';
import type { Evidence, ExplainData, ExplainSignalRow, IndexFreshness } from './types';

const MAX_CANDIDATES = 60;

export interface ExplainInput {
  candidates: Candidate[];
  ranked: Ranked;
  paths: PathTrace[];
  assembled?: Assembled;
  conversation?: ConversationView;
  mapNote?: string;
  wiring: string[];
  index: IndexFreshness;
  signals?: ExplainSignalRow[];
}

export function buildExplain(x: ExplainInput): ExplainData {
  const candidates = [...x.candidates]
    .sort((a, b) => b.evidence.relevance - a.evidence.relevance || b.pathScore - a.pathScore)
    .slice(0, MAX_CANDIDATES)
    .map((c) => ({ key: c.evidence.key, source: c.evidence.source, method: c.evidence.method, title: c.evidence.title, relevance: c.evidence.relevance, score: Math.round(c.pathScore * 1000) / 1000 }));
  const summary = x.conversation?.summary;
  return {
    paths: x.paths,
    candidates,
    rerank: x.ranked.decisions.slice(0, MAX_CANDIDATES * 2),
    gate: { cutoff: RELEVANCE_CUTOFF, best: x.ranked.best },
    budgetCut: x.assembled?.cut ?? [],
    ...(x.assembled?.map !== undefined || x.mapNote ? { repoMap: { tokens: x.assembled?.mapTokens ?? 0, ...(x.mapNote ? { note: x.mapNote } : {}) } } : {}),
    ...(x.conversation ? { conversation: { exchanges: x.conversation.exchanges, compressed: summary ? summary.covers.to - summary.covers.from + 1 : 0, tokens: x.conversation.tokens } } : {}),
    index: x.index,
    wiring: x.wiring,
    ...(x.signals?.length ? { signals: x.signals } : {}),
  };
}

/** How fresh the index was for this answer: its age and the evidence files changed on disk since they were indexed. */
export async function indexFreshness(code: CodeRetrieval, files: FileCache, evidence: Evidence[], now: number): Promise<IndexFreshness> {
  const paths = [...new Set(evidence.filter((e) => e.source === 'code' && e.path).map((e) => e.path!))];
  const state = await code.indexState(paths);
  const staleFiles: string[] = [];
  for (const p of paths) {
    const indexed = state.indexedMtimes[p];
    const onDisk = await files.mtime(p);
    if (indexed !== undefined && onDisk !== undefined && onDisk !== indexed) staleFiles.push(p);
  }
  return {
    exists: state.exists,
    ...(state.updatedAt ? { updatedAt: new Date(state.updatedAt).toISOString(), ageMs: Math.max(0, now - state.updatedAt) } : {}),
    staleFiles,
  };
}
