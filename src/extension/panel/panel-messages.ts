/**
 * Validation of what the Oracle panel sends. The webview renders workspace text and is treated as untrusted: every
 * message is checked field by field, unknown types and extra shapes are dropped, and paths must stay inside the
 * workspace: as text here, and on disk (symlinks followed) by `workspaceFile` before anything is opened. No 'vscode'
 * import, so it is tested in plain Node.
 */
import { resolveInsideRoot } from '../../node/workspace-path';
import { type HostMessage, MAX_QUESTION_CHARS, type WebviewMessage } from '../../protocol/webview';

const MAX_ID = 200;

function str(v: unknown, max: number): string | undefined {
  return typeof v === 'string' && v.length > 0 && v.length <= max ? v : undefined;
}

function line(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 10_000_000 ? v : undefined;
}

/** A workspace-relative POSIX path that cannot climb out of the workspace. */
export function safeRelativePath(v: unknown): string | undefined {
  const p = str(v, 1024);
  if (!p || p.includes('\\') || p.includes('\0') || p.startsWith('/') || /^[A-Za-z]:/.test(p) || /^[a-z][\w+.-]*:/i.test(p)) return undefined;
  const parts = p.split('/');
  return parts.some((s) => s === '..' || s === '') ? undefined : p;
}

/**
 * `v` if it is a safe relative path naming an existing file whose real path (symlinks followed, the root's too) is
 * inside the workspace root's real path, else undefined. `linkout/secret.txt` with `linkout -> /outside` reads as
 * inside but is not. Returns the path as given (the editor shows the name the user knows).
 */
export async function workspaceFile(root: string, v: unknown): Promise<string | undefined> {
  const rel = safeRelativePath(v);
  if (!rel) return undefined;
  const found = await resolveInsideRoot(root, rel);
  return found?.exists && !found.isDirectory ? rel : undefined;
}

/** Messages that can make a card (results, and an answer's start, result and end; Explain's signals travel in the result). */
const CARD_MESSAGE_TYPES = new Set(['bundle', 'why', 'map', 'search', 'lint', 'graph', 'askStarted', 'askEvent', 'askEnded']);
const MAX_CARD_MESSAGES = 8;
const MAX_CARD_JSON = 4_000_000;

/**
 * The messages the webview sends with "Open in editor" for a card restored after a reload: only card-making types,
 * all naming the card `key`, few and bounded in size; anything else drops them all. They go to the results panel,
 * which renders them as the sidebar did (text as text), so nothing here is trusted beyond what the webview showed.
 */
function cardMessages(v: unknown, key: string): HostMessage[] | undefined {
  if (!Array.isArray(v) || v.length === 0 || v.length > MAX_CARD_MESSAGES) return undefined;
  for (const m of v as unknown[]) {
    if (!m || typeof m !== 'object' || Array.isArray(m)) return undefined;
    const o = m as Record<string, unknown>;
    if (typeof o.type !== 'string' || !CARD_MESSAGE_TYPES.has(o.type) || (o.key !== key && o.id !== key)) return undefined;
  }
  return JSON.stringify(v).length <= MAX_CARD_JSON ? v as HostMessage[] : undefined;
}

/** The message if it is well-formed, else undefined (the caller logs and drops it). */
export function parseWebviewMessage(raw: unknown): WebviewMessage | undefined {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const m = raw as Record<string, unknown>;
  switch (m.type) {
    case 'ready':
      return { type: 'ready', restored: m.restored === true };
    case 'newConversation':
    case 'writeStarterGraph':
      return { type: m.type };
    case 'openInEditor': {
      const key = str(m.key, MAX_ID);
      if (!key) return undefined;
      const messages = cardMessages(m.messages, key);
      return { type: 'openInEditor', key, ...(messages ? { messages } : {}) };
    }
    case 'ask': {
      const question = typeof m.question === 'string' ? m.question.trim() : '';
      if (!question || question.length > MAX_QUESTION_CHARS) return undefined;
      return { type: 'ask', question, explain: m.explain === true };
    }
    case 'stop': {
      const id = str(m.id, MAX_ID);
      return id ? { type: 'stop', id } : undefined;
    }
    case 'open': {
      const path = safeRelativePath(m.path);
      if (!path) return undefined;
      const l = line(m.line);
      const e = line(m.endLine);
      return { type: 'open', path, ...(l ? { line: l } : {}), ...(l && e && e >= l ? { endLine: e } : {}) };
    }
    case 'why':
    case 'bundle':
    case 'graph': {
      const refId = str(m.refId, 1024);
      return refId ? { type: m.type, refId } : undefined;
    }
    default:
      return undefined;
  }
}
