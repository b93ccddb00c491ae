/**
 * The session log: every exchange appended to `.context-oracle/threads/oracle-session-YYYY-MM-DD.md` (UTC date)
 * with its author, so later questions (and people) can find earlier answers as threads.
 */
import { joinPath } from '../index/paths';
import type { Clock, FileSystem, WorkspaceWriter } from '../ports';

export const THREADS_DIR = '.context-oracle/threads';
/** Marks an exchange that found nothing; the threads source never treats such an entry as evidence. */
export const NO_CONTEXT_MARKER = '<!-- oracle: no relevant project context -->';

export interface LoggedExchange {
  question: string;
  answer: string;
  author: string;
  noContext: boolean;
  mode: string;
  model?: string;
  session?: string;
}

export function sessionLogPath(now: number): string {
  return `${THREADS_DIR}/oracle-session-${new Date(now).toISOString().slice(0, 10)}.md`;
}

/** Appends one exchange; returns the workspace-relative path written. */
export async function appendSessionLog(root: string, fs: FileSystem, writer: WorkspaceWriter, clock: Clock, x: LoggedExchange): Promise<string> {
  const now = clock.now();
  const rel = sessionLogPath(now);
  const abs = joinPath(root, rel);
  const exists = await fs.stat(abs).then((s) => s.isFile, () => false);
  const stamp = new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const oneLine = (s: string): string => s.replace(/\s+/g, ' ').trim();
  // Headings inside the answer would split the entry into several thread entries; keep them as bold lines.
  const answer = x.answer.replace(/^#{1,6}\s+(.+)$/gm, '**$1**').trim();
  const entry = [
    ...(exists ? [] : [`# Oracle session ${stamp.slice(0, 10)}`, '']),
    `## ${stamp} · ${oneLine(x.author)} · ${oneLine(x.question).slice(0, 120)}`,
    '',
    `**Asked by:** ${oneLine(x.author)}${x.session ? ` (session ${oneLine(x.session)})` : ''} · **answer:** ${x.mode}${x.model ? ` (${x.model})` : ''}`,
    '',
    `**Question:** ${oneLine(x.question)}`,
    '',
    answer,
    ...(x.noContext ? ['', NO_CONTEXT_MARKER] : []),
    '',
    '',
  ].join('\n');
  await writer.append(abs, entry);
  return rel;
}
