/**
 * The session log: every exchange appended to `oracle-session-YYYY-MM-DD.md` (UTC date) with its author, in the
 * workspace's cache folder by default, or in `.context-oracle/threads/` when a team commits its sessions
 * (`sessionLogs: "workspace"`). The oracle's own answers are never evidence for later answers (see sources/threads.ts)
 * unless a question asks about past sessions.
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

/** A session log's file name (the threads source tells them from notes people write by it). */
export const SESSION_LOG_NAME = /^oracle-session-\d{4}-\d{2}-\d{2}\.md$/i;

export function sessionLogName(now: number): string {
  return `oracle-session-${new Date(now).toISOString().slice(0, 10)}.md`;
}

export function sessionLogPath(now: number): string {
  return `${THREADS_DIR}/${sessionLogName(now)}`;
}

/** Where logs go: `dir` (absolute, outside the workspace) or, without one, the workspace's threads folder. */
export interface SessionLogTarget {
  root: string;
  dir?: string;
}

/** Appends one exchange; returns the path written (workspace-relative in the workspace, else absolute). */
export async function appendSessionLog(target: SessionLogTarget, fs: FileSystem, writer: WorkspaceWriter, clock: Clock, x: LoggedExchange): Promise<string> {
  const now = clock.now();
  const rel = target.dir ? joinPath(target.dir, sessionLogName(now)) : sessionLogPath(now);
  const abs = target.dir ? rel : joinPath(target.root, rel);
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
