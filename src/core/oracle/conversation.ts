/**
 * Conversation memory shared by the tools of one session (a panel conversation, an MCP session): every exchange is
 * recorded raw; reading the conversation is what compresses it. When the verbatim exchanges pass 80 % of the
 * conversation budget, all but the last N are folded into a summary, made then (lazily, on read, never on write)
 * and cached with the id of the last exchange it covers, so the next read only folds in what is new.
 * With a `persist` store (the workspace's cache folder) a session outlives the process: every change is written to
 * `conversation-<hash of the session id>.json`, and `load` picks up what another process (a CLI run before this one,
 * the MCP server before its restart) recorded.
 */
import { createHash } from 'node:crypto';
import type { Logger, StateStore } from '../ports';
import { countTokens } from '../tokens';

export interface ExchangeInput {
  /** `ask_oracle`, `find_definition`, `search_code`, … */
  tool: string;
  input: string;
  output: string;
  files?: string[];
  symbols?: string[];
}

export interface Exchange extends ExchangeInput {
  id: number;
  /** ISO time. */
  at: string;
  tokens: number;
}

export interface ConversationView {
  session: string;
  /** Older exchanges, compressed; `covers` names the exchange ids folded in. */
  summary?: { text: string; covers: { from: number; to: number }; tokens: number };
  /** The latest exchanges, verbatim. */
  recent: Exchange[];
  /** Tokens of summary plus recent exchanges. */
  tokens: number;
  budget: number;
  exchanges: number;
  /** The code name the latest exchanges were about, for follow-ups ("where is it used?"). */
  lastSubject?: string;
}

/** Folds exchanges into a summary, given the previous summary (undefined the first time). */
export type Summariser = (previous: string | undefined, exchanges: Exchange[]) => Promise<string>;

export interface ConversationStore {
  record(session: string, exchange: ExchangeInput): Exchange;
  /** The conversation as a model should see it; compresses (and caches) when over the threshold. */
  read(session: string, summarise: Summariser): Promise<ConversationView | undefined>;
  /** The latest subject, without compressing anything. */
  lastSubject(session: string): string | undefined;
  /** How many summaries were made for a session (a summary is made only on read, when needed). */
  summariesMade(session: string): number;
  /** Takes up the session as persisted, when another process has recorded more of it than this one holds. */
  load(session: string): Promise<void>;
  /** Resolves when the session's changes so far are persisted (at once without a `persist` store). */
  saved(session: string): Promise<void>;
}

export interface ConversationOptions {
  /** Token budget of the conversation (default 4,000). */
  budget?: number;
  /** Exchanges always kept verbatim (default 3). */
  keepRecent?: number;
  /** Compress above this share of the budget (default 0.8). */
  threshold?: number;
  now: () => number;
  /** Where sessions are kept across processes; absent: in memory only. */
  persist?: StateStore;
  logger?: Logger;
}

interface SessionState {
  exchanges: Exchange[];
  summary?: { text: string; from: number; through: number; tokens: number };
  summaries: number;
  nextId: number;
  /** False until the persisted session (if any) was taken up; absent without a persist store. */
  loaded?: boolean;
}

const MAX_SESSIONS = 100;

export function createConversationStore(options: ConversationOptions): ConversationStore {
  const budget = options.budget ?? 4000;
  const keepRecent = options.keepRecent ?? 3;
  const threshold = options.threshold ?? 0.8;
  const sessions = new Map<string, SessionState>();
  const writes = new Map<string, Promise<void>>();
  const fileOf = (session: string): string => `conversation-${createHash('sha256').update(session).digest('hex').slice(0, 24)}.json`;

  /**
   * Joins what is persisted for the session with what this process holds: a session this process started before
   * reading the file (an MCP tool call right after a restart) goes on after the stored exchanges, never over them.
   */
  const takeUp = async (session: string): Promise<void> => {
    const text = await options.persist!.read(fileOf(session)).catch(() => undefined);
    const stored = text ? parseStored(text, session) : undefined;
    const mine = sessions.get(session);
    if (!stored) {
      if (mine) mine.loaded = true;
      return;
    }
    if (!mine) {
      if (sessions.size >= MAX_SESSIONS) sessions.delete(sessions.keys().next().value!);
      sessions.set(session, stored);
    } else if (!mine.loaded) {
      // Renumbered in place: the exchanges this process recorded come after the stored ones.
      for (const x of mine.exchanges) x.id += stored.nextId - 1;
      mine.exchanges = [...stored.exchanges, ...mine.exchanges];
      mine.nextId += stored.nextId - 1;
      mine.summaries += stored.summaries;
      if (!mine.summary && stored.summary) mine.summary = stored.summary;
      mine.loaded = true;
    } else if (stored.nextId > mine.nextId) sessions.set(session, stored);
  };

  /** Queues a write of the session; writes of one session never overlap, and each writes the session as it is then. */
  const persist = (session: string): void => {
    const store = options.persist;
    if (!store) return;
    const next = (writes.get(session) ?? Promise.resolve())
      .then(async () => {
        if (sessions.get(session)?.loaded === false) await takeUp(session);
        const s = sessions.get(session);
        if (!s) return;
        const { loaded: _loaded, ...kept } = s;
        await store.write(fileOf(session), JSON.stringify({ version: 1, session, ...kept }));
      })
      .catch((e: unknown) => options.logger?.warn(`conversation ${session} not kept: ${e instanceof Error ? e.message : String(e)}`));
    writes.set(session, next);
  };

  const state = (session: string): SessionState => {
    let s = sessions.get(session);
    if (!s) {
      // Oldest session out first: a long-lived server must not grow without bound.
      if (sessions.size >= MAX_SESSIONS) sessions.delete(sessions.keys().next().value!);
      s = { exchanges: [], summaries: 0, nextId: 1, ...(options.persist ? { loaded: false } : {}) };
      sessions.set(session, s);
    }
    return s;
  };

  return {
    record(session, input) {
      const s = state(session);
      const exchange: Exchange = { ...input, id: s.nextId++, at: new Date(options.now()).toISOString(), tokens: countTokens(`${input.input}\n${input.output}`) };
      s.exchanges.push(exchange);
      persist(session);
      return exchange;
    },
    async read(session, summarise) {
      const s = sessions.get(session);
      if (!s) return undefined;
      const covered = s.summary?.through ?? 0;
      const open = s.exchanges.filter((x) => x.id > covered);
      const tokens = open.reduce((n, x) => n + x.tokens, 0) + (s.summary?.tokens ?? 0);
      if (tokens > threshold * budget && open.length > keepRecent) {
        const fold = open.slice(0, open.length - keepRecent);
        const text = await summarise(s.summary?.text, fold);
        s.summary = { text, from: s.summary?.from ?? fold[0]!.id, through: fold[fold.length - 1]!.id, tokens: countTokens(text) };
        s.summaries++;
        // The summary now stands for these; keep only what the summary does not cover.
        s.exchanges = s.exchanges.filter((x) => x.id > s.summary!.through);
        persist(session);
      }
      const recent = s.exchanges.filter((x) => x.id > (s.summary?.through ?? 0));
      const subject = lastSubjectOf(s);
      return {
        session,
        ...(s.summary ? { summary: { text: s.summary.text, covers: { from: s.summary.from, to: s.summary.through }, tokens: s.summary.tokens } } : {}),
        recent,
        tokens: recent.reduce((n, x) => n + x.tokens, 0) + (s.summary?.tokens ?? 0),
        budget,
        exchanges: s.nextId - 1,
        ...(subject ? { lastSubject: subject } : {}),
      };
    },
    lastSubject(session) {
      const s = sessions.get(session);
      return s ? lastSubjectOf(s) : undefined;
    },
    summariesMade(session) {
      return sessions.get(session)?.summaries ?? 0;
    },
    async load(session) {
      if (!options.persist) return;
      await writes.get(session);
      await takeUp(session);
    },
    async saved(session) {
      await writes.get(session);
    },
  };
}

/** The view cut to `maxTokens`: the summary if it fits, then as many of the latest exchanges as fit. */
export function fitConversation(view: ConversationView, maxTokens: number): ConversationView {
  let room = maxTokens;
  const summary = view.summary && view.summary.tokens <= room ? view.summary : undefined;
  room -= summary?.tokens ?? 0;
  const recent: Exchange[] = [];
  for (let i = view.recent.length - 1; i >= 0 && view.recent[i]!.tokens <= room; i--) {
    recent.unshift(view.recent[i]!);
    room -= view.recent[i]!.tokens;
  }
  const { summary: _dropped, ...rest } = view;
  return { ...rest, ...(summary ? { summary } : {}), recent, tokens: maxTokens - room };
}

/** A persisted session, or undefined when the file is not one (another session's, an older format, damaged). */
function parseStored(text: string, session: string): SessionState | undefined {
  try {
    const o = JSON.parse(text) as Partial<SessionState> & { version?: number; session?: string };
    if (o.version !== 1 || o.session !== session || !Array.isArray(o.exchanges) || typeof o.nextId !== 'number') return undefined;
    return { exchanges: o.exchanges, summaries: typeof o.summaries === 'number' ? o.summaries : 0, nextId: o.nextId, loaded: true, ...(o.summary ? { summary: o.summary } : {}) };
  } catch {
    return undefined;
  }
}

function lastSubjectOf(s: SessionState): string | undefined {
  for (let i = s.exchanges.length - 1; i >= 0; i--) {
    const sym = s.exchanges[i]!.symbols?.[0];
    if (sym) return sym;
  }
  return undefined;
}

/** A summary without a model: one line per exchange with its question, the places it pointed at and its gist. */
export const extractiveSummariser: Summariser = async (previous, exchanges) => {
  const lines = previous ? previous.split('\n') : [];
  for (const x of exchanges) {
    const gist = x.output.replace(/\s+/g, ' ').trim().split(/(?<=[.!?])\s/)[0]!.slice(0, 200);
    const where = [...(x.symbols ?? []), ...(x.files ?? [])].slice(0, 6).join(', ');
    lines.push(`- #${x.id} ${x.tool}: ${x.input.replace(/\s+/g, ' ').slice(0, 160)} → ${gist}${where ? ` [${where}]` : ''}`);
  }
  // The summary itself must stay small: the oldest lines go first.
  while (lines.length > 40) lines.shift();
  return lines.join('\n');
};
