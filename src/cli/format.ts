/** Human-readable renderings of engine DTOs for the terminal. */
import type { IndexOutcome, IndexStatus, JournalRepair, SearchHit } from '../core';

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

function formatCounts(counts: Record<string, number | undefined>): string {
  const entries = Object.entries(counts).filter(([, n]) => n);
  return entries.length ? entries.map(([k, n]) => `${k} ${n}`).join(', ') : 'none';
}

export function formatIndexOutcome(o: IndexOutcome): string {
  const lines = [
    `indexed ${o.filesSeen} files in ${(o.elapsedMs / 1000).toFixed(2)} s (${o.full ? 'full' : 'incremental'}): ` +
      `${o.parsed} parsed, ${o.unchanged} unchanged, ${o.removed} removed, ${o.failed} failed`,
    `skipped: ${formatCounts(o.skipCounts)}`,
    `index size: ${formatBytes(o.indexBytes)}`,
  ];
  if (o.memoryLimited) {
    const m = o.memoryLimited;
    lines.push(`memory: at most ${m.peakMb} MB against a limit of ${m.limitMb} MB${m.peakMb > m.limitMb ? ' (over it)' : ''}; batches shrank ${m.shrinks} times, down to ${m.smallestBatch} file(s)`);
  }
  if (o.lossyUtf8) lines.push(`${o.lossyUtf8} files had invalid UTF-8 (indexed with replacement characters)`);
  if (o.recovered) lines.push(`note: the previous index was unusable (${o.recovered.reason}) and was rebuilt${o.recovered.movedTo ? `; it was moved to ${o.recovered.movedTo}` : ''}`);
  if (o.journalRepair) lines.push(`${o.journalRepair.damage === 'corrupt' ? 'warning' : 'note'}: ${formatJournal(o.journalRepair)}`);
  return lines.join('\n');
}

/** A damaged journal and its repair, in one line (status, index). */
export function formatJournal(j: JournalRepair): string {
  const what = j.damage === 'corrupt'
    ? `the index journal was damaged (${j.detail}): commits after it were lost`
    : `the index journal ended in an interrupted commit (${j.detail})`;
  if (!j.repairedAt) return `${what}; not repaired yet (the index could not be written): run context-oracle index`;
  return `${what}; repaired ${j.repairedAt} by checking every file again (${j.reindexed ?? 0} indexed again)`;
}

export function formatStatus(s: IndexStatus): string {
  if (!s.exists) return `no index yet for ${s.root} (expected at ${s.indexPath}); run: context-oracle index`;
  const lines = [
    `root:        ${s.root}`,
    `index:       ${s.indexPath} (${formatBytes(s.indexBytes)})`,
    `updated:     ${s.updatedAt ?? 'unknown'}`,
    `version:     schema ${s.schemaVersion}, engine ${s.engineVersion}, grammars ${s.grammarHash}`,
    `files:       ${s.files} (${formatCounts(s.filesByLanguage)})`,
    `symbols:     ${s.symbols}`,
    `chunks:      ${s.chunks}`,
    `references:  ${s.references}`,
    `imports:     ${s.imports}`,
    `annotations: ${s.annotations}`,
    `syntax errors in: ${s.filesWithSyntaxErrors} files (indexed from the partial tree)`,
    `skipped:     ${formatCounts(s.skips)}`,
  ];
  if (s.freshness) {
    const f = s.freshness;
    const head = f.indexedHead ? `${f.indexedHead.slice(0, 12)}${f.indexedBranch ? ` (${f.indexedBranch})` : ''}` : 'not a git checkout';
    lines.push(`fresh as of: ${head}; ${f.queued.length ? `${f.queued.length} changed files queued: ${f.queued.slice(0, 5).join(', ')}${f.queued.length > 5 ? ', …' : ''}` : 'nothing queued'}`);
  }
  if (s.journal) lines.push(`journal:     ${s.journal.damage === 'corrupt' ? 'WARNING: ' : ''}${formatJournal(s.journal)}`);
  const unavailable = Object.entries(s.unavailableLanguages);
  if (unavailable.length) lines.push(`unavailable languages: ${unavailable.map(([l, why]) => `${l} (${why})`).join('; ')}`);
  return lines.join('\n');
}

export function formatHits(hits: SearchHit[]): string {
  if (!hits.length) return 'no matches';
  return hits
    .map((h) => {
      const head = `${h.path}:${h.line}  ${h.symbol ? `${h.kind} ${h.symbol}` : h.kind}  (${h.score})`;
      const body = h.snippet.split('\n').map((l) => `    ${l}`).join('\n');
      return `${head}\n${body}`;
    })
    .join('\n');
}

/** The --explain line on secrets: how many were redacted, or that redaction is off. */
export function redactionLine(redacted: number | undefined): string {
  return redacted === undefined ? 'secrets: not redacted (--no-redact)' : `secrets redacted: ${redacted}`;
}
