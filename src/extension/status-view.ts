/**
 * What the extension shows about the index, as plain data and text: the status bar's text and tooltip and the
 * Show Index Status report. No 'vscode' import, so it can be tested in plain Node.
 */
import type { FreshnessStamp, IndexStatus } from '../core';
import type { FolderActivity, IndexActivity } from '../protocol/language-server';

export type ViewState = 'untrusted' | 'starting' | 'server-failed' | IndexActivity['state'];

export interface StatusView {
  state: ViewState;
  progress?: IndexActivity['progress'];
  full?: boolean;
  /** The index as of the last finished run. */
  status?: IndexStatus;
  error?: string;
  /** The change queue as the server last reported it. */
  freshness?: FreshnessStamp;
  /** With several workspace folders: each one's state (the fields above add them up). */
  folders?: FolderActivity[];
}

/** "app: 3 files · lib: indexing 2/5" — each folder's state, when several are open (tooltip and report). */
export function foldersText(view: StatusView): string {
  if (!view.folders || view.folders.length < 2) return '';
  return view.folders.map((f) => {
    const p = f.progress;
    const what = f.state === 'indexing' ? `indexing${p && p.phase === 'parsing' && p.total > 0 ? ` ${p.done}/${p.total}` : '…'}`
      : f.state === 'ready' ? `${f.files ?? 0} ${f.files === 1 ? 'file' : 'files'}` : f.state === 'error' ? `index error (${f.error ?? 'unknown'})` : f.state;
    return `${f.name}: ${what}`;
  }).join(' · ');
}

const foldersParagraph = (view: StatusView): string => (foldersText(view) ? `\n\nFolders: ${foldersText(view)}.` : '');

/** " · 2 queued" and a tooltip paragraph when saved changes wait for the next batch. */
export function queuedText(view: StatusView): { text: string; tooltip: string } {
  const q = view.freshness?.queued ?? [];
  if (!q.length) return { text: '', tooltip: '' };
  const shown = q.slice(0, 5).join(', ') + (q.length > 5 ? `, … (${q.length - 5} more)` : '');
  return { text: ` · ${q.length} queued`, tooltip: `\n\n${q.length} saved ${q.length === 1 ? 'change is' : 'changes are'} queued for the next batch: ${shown}. Run "Context Oracle: Sync Now" to commit ${q.length === 1 ? 'it' : 'them'} at once.` };
}

export interface StatusBarContent {
  text: string;
  /** Markdown. */
  tooltip: string;
  severity: 'normal' | 'warning' | 'error';
}

export function statusBarContent(view: StatusView, now: number = Date.now()): StatusBarContent {
  const click = '\n\n_Click for the index status report._';
  switch (view.state) {
    case 'untrusted':
      return { text: '$(shield) Oracle: restricted', severity: 'warning',
        tooltip: 'This workspace is not trusted, so Context Oracle does not index it. Trust the workspace to enable indexing.' };
    case 'starting':
      return { text: '$(sync~spin) Oracle: starting', severity: 'normal', tooltip: 'Starting the Context Oracle language server…' };
    case 'server-failed':
      return { text: '$(error) Oracle: server failed', severity: 'error', tooltip: `The language server did not start: ${view.error ?? 'unknown error'}${click}` };
    case 'no-folder':
      return { text: '$(database) Oracle: no folder', severity: 'normal', tooltip: 'Open a folder to index it.' };
    case 'error':
      return { text: '$(error) Oracle: index error', severity: 'error', tooltip: `Indexing failed: ${view.error ?? 'unknown error'}${click}` };
    case 'indexing': {
      const p = view.progress;
      const count = p && p.phase === 'parsing' && p.total > 0 ? ` ${p.done}/${p.total}` : p?.phase === 'persisting' ? ' (saving)' : '…';
      return { text: `$(sync~spin) Oracle: indexing${count}`, severity: 'normal', tooltip: `${indexingText(view)}.${foldersParagraph(view)}\n\n_Click for the status, with a button to cancel; the previous index is kept until the run ends._` };
    }
    case 'ready': {
      const s = view.status;
      if (!s || !s.exists) return { text: '$(database) Oracle: no index', severity: 'warning', tooltip: `No index yet. Run "Context Oracle: Reindex Workspace".${click}` };
      const fresh = s.updatedAt ? `Updated ${relativeTime(s.updatedAt, now)} (${new Date(s.updatedAt).toLocaleString()}).` : 'Update time unknown.';
      const queued = queuedText(view);
      // A damaged journal lost commits until its repair: the user hears of it here, not only in a log.
      const damaged = s.journal?.damage === 'corrupt';
      return {
        text: `$(${damaged ? 'warning' : 'database'}) Oracle: ${s.files} ${s.files === 1 ? 'file' : 'files'}${queued.text}`,
        severity: damaged ? 'warning' : 'normal',
        tooltip: `**Context Oracle index**\n\n${fresh}\n\n${s.files} files (${languageList(s)}), ${s.symbols} symbols, ${s.annotations} annotations.${foldersParagraph(view)}${queued.tooltip}${damaged ? `\n\n${journalText(s.journal!)}` : ''}${click}`,
      };
    }
  }
}

/** "Rebuilding the index: 240/390 files" — what a run under way is doing, in words (tooltip and notification). */
export function indexingText(view: StatusView): string {
  const p = view.progress;
  const what = view.full ? 'Rebuilding the index' : (view.folders?.length ?? 0) > 1 ? `Indexing ${view.folders!.length} workspace folders` : 'Indexing the workspace';
  if (p?.phase === 'parsing' && p.total > 0) return `${what}: ${p.done}/${p.total} files`;
  if (p?.phase === 'persisting') return `${what}: saving`;
  return what;
}

/** The journal's damage and its repair, in words. */
export function journalText(j: NonNullable<IndexStatus['journal']>): string {
  const what = j.damage === 'corrupt' ? `The index journal was damaged (${j.detail}), so recent changes were missing from answers` : `The index journal ended mid-record (${j.detail}), as an interrupted write leaves it`;
  return j.repairedAt ? `${what}; repaired ${j.repairedAt}: ${j.reindexed ?? 0} files indexed again.` : `${what}; not repaired yet (the next index run repairs it).`;
}

export function languageList(s: IndexStatus): string {
  const parts = Object.entries(s.filesByLanguage).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([l, n]) => `${l} ${n}`);
  return parts.length ? parts.join(', ') : 'none';
}

export function relativeTime(iso: string, now: number): string {
  const secs = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (secs < 10) return 'just now';
  if (secs < 90) return `${secs} s ago`;
  const mins = Math.round(secs / 60);
  if (mins < 90) return `${mins} min ago`;
  const hours = Math.round(mins / 60);
  return hours < 36 ? `${hours} h ago` : `${Math.round(hours / 24)} days ago`;
}

/** One line for a notification. */
export function statusSummary(view: StatusView, now: number = Date.now()): string {
  const s = view.status;
  if (view.state === 'untrusted') return 'Context Oracle: workspace not trusted; indexing is off.';
  if (view.state === 'indexing') return `Context Oracle: ${indexingText(view)}. The previous index answers until the run ends.`;
  if (!s || !s.exists) return `Context Oracle: no index (${view.state}${view.error ? `: ${view.error}` : ''}).`;
  return `Context Oracle: ${s.files} files (${languageList(s)}), ${s.symbols} symbols, ${s.annotations} annotations; ${s.updatedAt ? `updated ${relativeTime(s.updatedAt, now)}` : 'update time unknown'}.`;
}

/** The readable report written to the output channel. */
export function statusReport(view: StatusView, activationMs: number, now: number = Date.now()): string[] {
  const s = view.status;
  const lines = ['Context Oracle index status', `  state:            ${view.state}${view.error ? ` (${view.error})` : ''}`];
  if (foldersText(view)) lines.push(`  folders:          ${foldersText(view)}`);
  if (s) {
    lines.push(
      `  workspace:        ${s.root}`,
      `  index file:       ${s.indexPath}${s.exists ? ` (${(s.indexBytes / 1024).toFixed(1)} KiB)` : ' (none yet)'}`,
    );
    if (s.exists) {
      lines.push(
        `  updated:          ${s.updatedAt ? `${s.updatedAt} (${relativeTime(s.updatedAt, now)})` : 'unknown'}`,
        `  files:            ${s.files} (${languageList(s)})`,
        `  symbols:          ${s.symbols}`,
        `  chunks:           ${s.chunks}`,
        `  references:       ${s.references}`,
        `  imports:          ${s.imports}`,
        `  annotations:      ${s.annotations}`,
        `  syntax errors in: ${s.filesWithSyntaxErrors} files`,
        `  skipped:          ${Object.entries(s.skips).map(([k, n]) => `${k} ${n}`).join(', ') || 'nothing'}`,
      );
      const unavailable = Object.entries(s.unavailableLanguages);
      if (unavailable.length) lines.push(`  unavailable:      ${unavailable.map(([l, why]) => `${l} (${why})`).join(', ')}`);
      if (s.journal) lines.push(`  journal:          ${journalText(s.journal)}`);
      if (s.lastRun) lines.push(`  last run:         ${s.lastRun.full ? 'full' : 'incremental'}, ${s.lastRun.parsed} parsed, ${s.lastRun.unchanged} unchanged, ${s.lastRun.removed} removed in ${s.lastRun.durationMs} ms`);
      lines.push(`  versions:         schema ${s.schemaVersion ?? '?'}, engine ${s.engineVersion ?? '?'}, grammars ${s.grammarHash ?? '?'}`);
    }
  }
  lines.push(`  activation:       ${activationMs.toFixed(1)} ms`);
  return lines;
}
