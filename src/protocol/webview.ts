/**
 * The Oracle panel's message protocol, declared once for the extension (host) and webview-ui (the panel's browser
 * code). The webview is untrusted: the host validates every inbound message (src/extension/panel/panel-messages.ts)
 * and queues outbound ones until the webview says `ready`. Payloads are the engine's plain DTOs.
 */
import type { AskEvent, BundleResult, ExplainData, GraphView, LintReport, RepoMap, SearchHit, WhyResult } from '../core';

// The engine DTOs the panel renders, re-exported (types only, so no engine code reaches the browser bundle) so that
// webview-ui imports nothing but src/protocol.
export type {
  AskEvent, AskResult, BundleResult, Citation, Evidence, ExplainData, GraphView, LintReport, RepoMap, SearchHit, WhyResult,
  WhyTreeNode,
} from '../core';

/** One node of smart context with the weighted signals behind its score: it comes with the answer's explain data. */
export type SignalRow = NonNullable<ExplainData['signals']>[number];

/**
 * A past question and its answer, from the conversation the engine stored (restored after a window reload when the
 * webview kept no state of its own).
 */
export interface PastExchange {
  question: string;
  answer: string;
  /** Milliseconds since the epoch. */
  at: number;
}

/** The results a card shows; `key` (set by the host) names the card for "Open in editor". */
export type ResultMessage =
  | { type: 'bundle'; refIds: string[]; result: BundleResult; key?: string }
  | { type: 'why'; result: WhyResult; key?: string }
  | { type: 'map'; map: RepoMap; key?: string }
  | { type: 'search'; query: string; hits: SearchHit[]; key?: string }
  | { type: 'lint'; report: LintReport; key?: string }
  | { type: 'graph'; refIds: string[]; view: GraphView; key?: string };

/** Host → webview. */
export type HostMessage =
  /** A question was sent (from the panel, a command or a chat follow-up); its events follow with the same id. */
  | { type: 'askStarted'; id: string; question: string; explain: boolean }
  | { type: 'askEvent'; id: string; event: AskEvent }
  /** Explain: the per-signal scores of the code the question's smart context selected (the oracle's code path). */
  /** The ask ended without a `done` event: stopped by the user or failed. */
  | { type: 'askEnded'; id: string; cancelled: boolean; error?: string }
  | ResultMessage
  | { type: 'error'; title: string; message: string }
  /** The model questions go to now, for the panel's header; no `model`: answers come from the evidence alone. */
  | { type: 'model'; model?: string; origin?: 'user' | 'editor' | 'workspace' }
  /** The stored conversation, for a webview that starts without state of its own (after a window reload). */
  | { type: 'history'; exchanges: PastExchange[] }
  /** Start a new conversation (the host dropped the old session). */
  | { type: 'cleared' }
  /** Put text in the question box (Ask Oracle with a selection) and focus it. */
  | { type: 'prefill'; question: string };

/** Webview → host. */
export type WebviewMessage =
  /** `restored`: the webview rebuilt its cards from its saved state, so the host need not send the history. */
  | { type: 'ready'; restored: boolean }
  | { type: 'ask'; question: string; explain: boolean }
  | { type: 'stop'; id: string }
  /** Open a workspace file at 1-based lines (a citation or a node). */
  | { type: 'open'; path: string; line?: number; endLine?: number }
  | { type: 'why'; refId: string }
  | { type: 'bundle'; refId: string }
  | { type: 'graph'; refId: string }
  /**
   * Show the card the host posted under `key` (or the answer with that ask id) in the editor-area panel. `messages`:
   * what made the card, from the webview's saved state, for a card restored after a reload (the new host never saw it).
   */
  | { type: 'openInEditor'; key: string; messages?: HostMessage[] }
  /** Write the starter graph proposed from the index to the graph folder and open it (the empty Graph state's button). */
  | { type: 'writeStarterGraph' }
  | { type: 'newConversation' };

export type HostMessageType = HostMessage['type'];
export type WebviewMessageType = WebviewMessage['type'];

/** Where a webview runs: the sidebar holds the conversation, the editor-area tab shows results at full width. */
export type PanelMode = 'sidebar' | 'editor';

/** Longest question the panel accepts (characters); longer input is refused, not truncated. */
export const MAX_QUESTION_CHARS = 4000;
