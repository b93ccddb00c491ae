/**
 * One activity, one index status and one freshness stamp for several workspace folders, so the status bar and the
 * status report keep a single shape: states by precedence (any folder indexing makes the whole indexing), progress
 * and counts added up, each folder's own state kept in `folders` for the tooltip. With one folder, its own values
 * pass through unchanged.
 */
import type { FreshnessStamp, IndexStatus } from '../core';
import type { IndexActivityState, OracleNotifications } from '../protocol/language-server';

export type FolderReport = OracleNotifications['contextOracle/activity'];

export interface NamedReport {
  name: string;
  activity: FolderReport;
}

// What the user most needs to hear first: a run under way, then a folder still starting, then a failure.
const PRECEDENCE: IndexActivityState[] = ['indexing', 'starting', 'error', 'ready', 'no-folder'];

function addCounts(a: Record<string, number>, b: Record<string, number | undefined>): Record<string, number> {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = (out[k] ?? 0) + (v ?? 0);
  return out;
}

/** The folders' index statuses added up; the oldest update time stands for the whole (the least fresh folder). */
export function combineStatus(statuses: IndexStatus[]): IndexStatus | undefined {
  if (statuses.length <= 1) return statuses[0];
  const [first, ...rest] = statuses as [IndexStatus, ...IndexStatus[]];
  let out: IndexStatus = { ...first };
  for (const s of rest) {
    out = {
      ...out,
      exists: out.exists && s.exists,
      files: out.files + s.files,
      filesByLanguage: addCounts(out.filesByLanguage, s.filesByLanguage),
      symbols: out.symbols + s.symbols,
      chunks: out.chunks + s.chunks,
      references: out.references + s.references,
      imports: out.imports + s.imports,
      annotations: out.annotations + s.annotations,
      filesWithSyntaxErrors: out.filesWithSyntaxErrors + s.filesWithSyntaxErrors,
      skips: addCounts(out.skips as Record<string, number>, s.skips),
      indexBytes: out.indexBytes + s.indexBytes,
      unavailableLanguages: { ...out.unavailableLanguages, ...s.unavailableLanguages },
      ...(out.journal ?? s.journal ? { journal: (out.journal ?? s.journal)! } : {}),
    };
    const updated = [out.updatedAt, s.updatedAt].filter((t): t is string => !!t).sort()[0];
    if (updated) out.updatedAt = updated;
  }
  delete out.lastRun;
  delete out.freshness;
  return out;
}

export function combineActivity(reports: NamedReport[]): FolderReport {
  if (reports.length === 0) return { state: 'no-folder' };
  if (reports.length === 1) return reports[0]!.activity;
  const state = PRECEDENCE.find((s) => reports.some((r) => r.activity.state === s)) ?? 'ready';
  const indexing = reports.filter((r) => r.activity.state === 'indexing');
  const progresses = indexing.map((r) => r.activity.progress).filter((p) => !!p);
  const out: FolderReport = {
    state,
    folders: reports.map(({ name, activity: a }) => ({
      name, state: a.state, ...(a.progress && a.state === 'indexing' ? { progress: a.progress } : {}),
      ...(a.status ? { files: a.status.files } : {}), ...(a.error ? { error: a.error.message } : {}),
    })),
  };
  if (progresses.length) {
    out.progress = {
      // Parsing is the phase with a count worth showing; while any folder parses, the sum of their files is shown.
      phase: progresses.some((p) => p.phase === 'parsing') ? 'parsing' : progresses[0]!.phase,
      done: progresses.reduce((n, p) => n + p.done, 0),
      total: progresses.reduce((n, p) => n + p.total, 0),
    };
  }
  if (indexing.some((r) => r.activity.full)) out.full = true;
  const failed = reports.find((r) => r.activity.error);
  if (failed) out.error = { ...failed.activity.error!, message: `${failed.name}: ${failed.activity.error!.message}` };
  const statuses = reports.map((r) => r.activity.status).filter((s): s is IndexStatus => !!s);
  // The summed status only when every folder has one: a part would read as the whole.
  if (statuses.length === reports.length) out.status = combineStatus(statuses)!;
  return out;
}

/** Queued paths of every folder (already in the client's form), the oldest index time, the warnings together. */
export function combineFreshness(stamps: FreshnessStamp[]): FreshnessStamp {
  if (stamps.length === 1) return stamps[0]!;
  const out: FreshnessStamp = { queued: stamps.flatMap((s) => s.queued) };
  const at = stamps.map((s) => s.indexedAt).filter((t): t is string => !!t).sort()[0];
  if (at) out.indexedAt = at;
  const warnings = stamps.flatMap((s) => s.warnings ?? []);
  if (warnings.length) out.warnings = warnings;
  return out;
}
