/**
 * What `status` reports about the index: counts by table, the meta row's notes (skips, last run, journal repair),
 * sizes on disk and the freshness stamp. A missing index is a status too (exists: false), not an error.
 */
import { EngineError } from '../errors';
import type { FreshnessStamp } from '../freshness/freshness';
import type { IndexStatus, JournalRepair } from '../model';
import type { IndexStorage } from '../ports';
import type { IndexDatabase } from './database';
import type { JournalDamage } from './journal';

export interface StatusSources {
  root: string;
  storage: IndexStorage;
  readable(): Promise<IndexDatabase>;
  damage(): JournalDamage | undefined;
  /** The freshness stamp, read from the database status already holds. */
  stamp(db: IndexDatabase): Promise<FreshnessStamp>;
}

export async function indexStatus(s: StatusSources): Promise<IndexStatus> {
  const base: IndexStatus = {
    root: s.root, indexPath: s.storage.location, exists: false, files: 0, filesByLanguage: {}, symbols: 0,
    chunks: 0, references: 0, imports: 0, annotations: 0, filesWithSyntaxErrors: 0, skips: {}, indexBytes: 0,
    unavailableLanguages: {},
  };
  let d: IndexDatabase;
  try {
    d = await s.readable();
  } catch (e) {
    if (EngineError.is(e, 'not_initialized')) return base;
    throw e;
  }
  const count = (sql: string): number => Number(d.get(sql)?.n ?? 0);
  const meta = d.meta();
  const filesByLanguage: Record<string, number> = {};
  for (const r of d.all('SELECT language, count(*) AS n FROM files GROUP BY language ORDER BY language')) filesByLanguage[String(r.language)] = Number(r.n);
  const parse = <T>(text: string | undefined, fallback: T): T => { try { return text ? JSON.parse(text) as T : fallback; } catch { return fallback; } };
  return {
    ...base,
    exists: true,
    files: count('SELECT count(*) AS n FROM files'),
    filesByLanguage,
    symbols: count('SELECT count(*) AS n FROM symbols'),
    // The tables under the `chunks` and `refs` views: counting through a view joins every row (84 ms vs 1 ms at 10k files).
    chunks: count('SELECT count(*) AS n FROM chunk_spans'),
    references: count('SELECT count(*) AS n FROM ref_rows'),
    imports: count('SELECT count(*) AS n FROM imports'),
    annotations: count('SELECT count(*) AS n FROM annotations'),
    filesWithSyntaxErrors: count('SELECT count(*) AS n FROM files WHERE has_errors = 1'),
    skips: parse(meta.skip_counts, {}),
    indexBytes: await s.storage.size() + await s.storage.journalSize(),
    ...(meta.updated_at ? { updatedAt: new Date(Number(meta.updated_at)).toISOString() } : {}),
    schemaVersion: meta.schema_version,
    engineVersion: meta.engine_version,
    grammarHash: meta.grammar_hash,
    unavailableLanguages: parse(meta.unavailable_languages, {}),
    ...(meta.last_report ? { lastRun: parse(meta.last_report, undefined) } : {}),
    ...journalStatus(s.damage(), meta.journal_repair),
    freshness: await s.stamp(d),
  };
}

/** Damage this process sees and could not repair, else the last repair's note (kept until a full run). */
function journalStatus(damage: JournalDamage | undefined, note: string | undefined): { journal?: JournalRepair } {
  if (damage) return { journal: { damage: damage.kind, at: damage.at, detail: damage.detail } };
  if (!note) return {};
  try {
    return { journal: JSON.parse(note) as JournalRepair };
  } catch {
    return {};
  }
}
