/**
 * From ranked files to the code nodes a context shows: every symbol the question names, the best-matching chunks of
 * the strongest files, chunks found by vectors, and for each method its class (signature only) as context.
 */
import { chunkTexts, indexedDoc } from '../store/chunk-texts';
import type { IndexDatabase } from '../store/database';
import type { ChunkMeta } from './db-facts';
import type { Evidence } from './evidence';
import { zeroSignals, type ScoredFile } from './rank-files';
import type { NodeReason, SignalScores } from './types';

export interface NodeCandidate {
  id: string;
  fileId: number;
  path: string;
  symbol?: string;
  kind: string;
  lineStart: number;
  lineEnd: number;
  signature?: string;
  /** The definition's doc comment, when the index keeps one apart from its lines. */
  doc?: string;
  /** Source lines lineStart..lineEnd (capped by the index for very long definitions). */
  text: string;
  score: number;
  signals: SignalScores;
  reason: NodeReason;
  /** For a method: the id of its class-context node, which is shown with it. */
  parentId?: string;
  /** Exact mentions are always shown, at least as a signature. */
  mention: boolean;
}

const COMMENT_LINE = /^\s*(\/\/|#|\/\*|\*|"""|'''|--|<!--)/;

/** Chunks taken from one file, and the share of its best chunk's score a chunk needs. */
const CHUNKS_PER_FILE = 3;
const CHUNK_SHARE = 0.3;
/** Files whose chunks become nodes. */
const NODE_FILES = 12;
/** Nodes scoring below this share of the best one stay out of the text (they remain in the ranked files). */
const NODE_MIN_SCORE = 0.15;

interface ChunkRow extends ChunkMeta {
  doc?: string;
  container?: string;
  signature?: string;
  text: string;
}

function chunkRows(db: IndexDatabase, ids: number[]): Map<number, ChunkRow> {
  const out = new Map<number, ChunkRow>();
  for (let i = 0; i < ids.length; i += 200) {
    const part = ids.slice(i, i + 200);
    const rows = db.all(
      `SELECT c.id, c.file_id, c.symbol, c.kind, c.line_start, c.line_end, c.container, c.signature
       FROM chunks c WHERE c.id IN (${part.map(() => '?').join(',')})`,
      part,
    );
    const texts = chunkTexts(db, part);
    for (const r of rows) {
      // The index keeps a doc comment that sits above a definition at the head of its chunk; split it off again.
      const text = texts.get(Number(r.id)) ?? '';
      // A symbol's chunk starts where its definition does, so its doc is the one for that line.
      const doc = r.symbol === null ? undefined : indexedDoc(db, Number(r.file_id), Number(r.line_start));
      const hasDoc = doc !== undefined && text.startsWith(`${doc}\n`);
      out.set(Number(r.id), {
        id: Number(r.id), fileId: Number(r.file_id), kind: String(r.kind), lineStart: Number(r.line_start), lineEnd: Number(r.line_end),
        text: hasDoc ? text.slice(doc.length + 1) : text, ...(hasDoc ? { doc } : {}), ...(r.symbol !== null ? { symbol: String(r.symbol) } : {}),
        ...(r.container !== null ? { container: String(r.container) } : {}), ...(r.signature !== null ? { signature: String(r.signature) } : {}),
      });
    }
  }
  return out;
}

export function selectNodes(db: IndexDatabase, ev: Evidence, files: ScoredFile[]): NodeCandidate[] {
  // The fitted ranker re-orders files without rescoring them: the strongest score need not be the first.
  const topScore = files.reduce((m, f) => Math.max(m, f.score), 0);
  if (!topScore) return [];
  const fileRank = new Map(files.map((f) => [f.fileId, f]));
  const wanted = new Map<number, { score: number; reason: NodeReason; entity: number; mention: boolean }>();
  const want = (chunkId: number, score: number, reason: NodeReason, entity = 0, mention = false): void => {
    const prior = wanted.get(chunkId);
    if (!prior || prior.score < score) wanted.set(chunkId, { score, reason: prior?.mention ? 'mention' : reason, entity: Math.max(entity, prior?.entity ?? 0), mention: mention || (prior?.mention ?? false) });
  };

  // Named symbols: their own chunk (the definition), found by file, qualified name and first line, or else (a
  // declaration the parser did not record) the smallest chunk around the declaring line.
  for (const m of ev.matches) {
    if (m.quality < 0.3) continue;
    const row = db.get('SELECT id FROM chunks WHERE file_id = ? AND symbol = ? AND line_start = ?', [m.fileId, m.qualifiedName, m.lineStart])
      ?? db.get('SELECT id FROM chunks WHERE file_id = ? AND symbol = ? ORDER BY line_start LIMIT 1', [m.fileId, m.qualifiedName])
      ?? db.get('SELECT id FROM chunks WHERE file_id = ? AND line_start <= ? AND line_end >= ? ORDER BY line_end - line_start LIMIT 1', [m.fileId, m.nameLine, m.nameLine]);
    if (!row) continue;
    const fileScore = (fileRank.get(m.fileId)?.score ?? 0) / topScore;
    want(Number(row.id), Math.max(m.quality, fileScore), 'mention', m.quality, m.how === 'exact' || m.how === 'qualified');
  }
  // Best chunks of the strongest files.
  for (const f of files.slice(0, NODE_FILES)) {
    const hits = [...(ev.text.files.get(f.fileId)?.hits ?? [])].sort((a, b) => b.bm25 - a.bm25 || a.id - b.id);
    const best = hits[0]?.bm25 ?? 0;
    for (const h of hits.slice(0, CHUNKS_PER_FILE)) {
      if (h.bm25 < CHUNK_SHARE * best) break;
      want(h.id, (f.score / topScore) * (0.4 + 0.6 * (best ? h.bm25 / best : 0)), 'match');
    }
  }
  if (ev.vectors) {
    const sims = [...ev.vectors.entries()].sort((a, b) => b[1].similarity - a[1].similarity).slice(0, 8);
    const top = sims[0]?.[1].similarity ?? 0;
    for (const [chunkId, v] of sims) {
      const f = fileRank.get(v.fileId);
      if (f && top > 0) want(chunkId, (f.score / topScore) * (v.similarity / top), 'vector');
    }
  }

  // Only chunks that can be shown are read: rebuilding a chunk's text unpacks its file and reads all its symbols, and
  // a weak match below NODE_MIN_SCORE would be dropped below anyway.
  const shown = [...wanted].filter(([, w]) => w.mention || nodeScore(w.score) >= NODE_MIN_SCORE);
  const rows = chunkRows(db, shown.map(([chunkId]) => chunkId));
  const nodes: NodeCandidate[] = [];
  for (const [chunkId, w] of shown) {
    const row = rows.get(chunkId);
    const file = row ? ev.facts.files.get(row.fileId) : undefined;
    if (!row || !file || (row.kind === 'file' && commentOnly(row.text))) continue;
    const ranked = fileRank.get(row.fileId);
    const hit = ev.text.chunk(chunkId);
    const bestInFile = ev.text.files.get(row.fileId)?.best?.bm25 ?? 0;
    const signals: SignalScores = {
      ...(ranked?.signals ?? zeroSignals()),
      entity: w.entity,
      bm25Chunk: hit && bestInFile ? Math.round((hit.bm25 / bestInFile) * (ranked?.signals.bm25Chunk ?? 0) * 10000) / 10000 : 0,
      vector: ev.vectors?.get(chunkId)?.similarity ?? 0,
    };
    nodes.push({
      id: row.symbol ? `${file.path}#${row.symbol}` : `${file.path}:${row.lineStart}`, fileId: row.fileId, path: file.path,
      ...(row.symbol ? { symbol: row.symbol } : {}), kind: row.kind, lineStart: row.lineStart, lineEnd: row.lineEnd,
      ...(row.signature ? { signature: row.signature } : {}), ...(row.doc ? { doc: row.doc } : {}), text: row.text, score: nodeScore(w.score),
      signals, reason: w.reason, mention: w.mention,
      ...(row.container ? { parentId: `${file.path}#${row.container}` } : {}),
    });
  }
  return withClassContext(db, dropNested(nodes.filter((n) => n.mention || n.score >= NODE_MIN_SCORE)));
}

/** A node's score as it is shown and compared with NODE_MIN_SCORE: four decimals. */
function nodeScore(score: number): number {
  return Math.round(score * 10000) / 10000;
}

/** Code outside definitions that is only blank lines and comments (usually the doc of the next definition). */
function commentOnly(text: string): boolean {
  return text.split('\n').every((l) => !l.trim() || COMMENT_LINE.test(l));
}

/** A chunk inside another selected chunk of the same file adds nothing: keep the stronger of the two. */
function dropNested(nodes: NodeCandidate[]): NodeCandidate[] {
  const sorted = [...nodes].sort((a, b) => Number(b.mention) - Number(a.mention) || b.score - a.score || a.id.localeCompare(b.id));
  const kept: NodeCandidate[] = [];
  for (const n of sorted) {
    // A class's chunk is its head only (members have their own chunks), so a method never nests in its class.
    const clash = kept.some((k) => k.fileId === n.fileId
      && ((n.lineStart >= k.lineStart && n.lineEnd <= k.lineEnd) || (k.lineStart >= n.lineStart && k.lineEnd <= n.lineEnd)));
    if (!clash) kept.push(n);
  }
  return kept;
}

/** Adds, for each method, its class as a signature-only node (once per class), scored like its best method. */
function withClassContext(db: IndexDatabase, nodes: NodeCandidate[]): NodeCandidate[] {
  const present = new Set(nodes.map((n) => n.id));
  const parents = new Map<string, NodeCandidate>();
  for (const n of nodes) {
    if (!n.parentId || present.has(n.parentId)) continue;
    const prior = parents.get(n.parentId);
    if (prior) { prior.score = Math.max(prior.score, n.score); continue; }
    const container = n.parentId.slice(n.path.length + 1);
    const row = db.get('SELECT kind, line_start, line_end, signature FROM symbols WHERE file_id = ? AND qualified_name = ? ORDER BY line_start LIMIT 1', [n.fileId, container]);
    if (!row) { delete n.parentId; continue; }
    parents.set(n.parentId, {
      id: n.parentId, fileId: n.fileId, path: n.path, symbol: container, kind: String(row.kind), lineStart: Number(row.line_start),
      lineEnd: Number(row.line_end), signature: String(row.signature), text: String(row.signature), score: n.score, signals: n.signals,
      reason: 'class context', mention: false,
    });
  }
  return [...nodes, ...parents.values()].sort((a, b) => Number(b.mention) - Number(a.mention) || b.score - a.score || a.id.localeCompare(b.id));
}
