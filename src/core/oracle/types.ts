/**
 * DTOs of the oracle: the question in, a stream of plain serialisable events out (the CLI, the MCP server and the
 * VS Code panel consume the same stream), and the collected result.
 */
import type { QuestionKind } from '../question/kind';

/** Where evidence can come from; each can be chosen with `sources` and each can be unavailable on its own. */
export type SourceName = 'code' | 'docs' | 'git' | 'threads';
export const SOURCE_NAMES: readonly SourceName[] = ['code', 'docs', 'git', 'threads'];

/** What the question asks for; decides which retrieval paths lead and what gets boosted. */
export type { QuestionKind } from '../question/kind';

/** How a piece of evidence was found. */
export type RetrievalMethod =
  | 'definition' | 'references' | 'context' | 'fulltext' | 'docs' | 'commits' | 'file-history' | 'blame' | 'threads' | 'conversation';

export interface QuestionAnalysis {
  kind: QuestionKind;
  /** The code name the question is about, when it names one (`createGreeter`, `auth.login`). */
  subject?: string;
  /** Other code-looking names in the question. */
  entities: string[];
  /** Content words, identifier-aware, question words and intent words dropped. */
  terms: string[];
  /** Behaviour questions rank tests up; other questions rank them down a little. */
  boostTests: boolean;
  /** The subject came from the conversation (a follow-up such as "where is it used?"). */
  subjectFromConversation?: boolean;
}

/** One piece of evidence, from any source. Lines are 1-based and inclusive. */
export interface Evidence {
  /** Stable key: the same place found twice is merged under it. */
  key: string;
  source: SourceName;
  method: RetrievalMethod;
  /** Workspace-relative POSIX path (code, docs, thread files). */
  path?: string;
  line?: number;
  endLine?: number;
  commit?: string;
  thread?: string;
  /** Symbol, heading, commit subject or thread entry title. */
  title: string;
  /** The excerpt shown to the reader and the model. */
  text: string;
  /** Share of the question's weighted terms the evidence holds (0..1); the relevance gate reads it. */
  relevance: number;
  /** Final rank score after merging and reranking. */
  score: number;
  /** One line: why this evidence is here. */
  reason: string;
  /** Extra facts for rendering (symbol kind, language, author, date). */
  meta?: Record<string, string>;
}

export type CitationKind = 'code' | 'doc' | 'thread' | 'commit';

/** A numbered reference the answer points at with `[n]`. */
export interface Citation {
  n: number;
  kind: CitationKind;
  /** Printable: `src/a.ts:3-9`, `docs/guide.md:5-12`, `thread oracle-session-2025-01-02`, `commit 1a2b3c4`. */
  label: string;
  path?: string;
  line?: number;
  endLine?: number;
  thread?: string;
  commit?: string;
  /** A line of the cited text, as the file holds it within line..endLine (checked before the answer is made). */
  quote: string;
  title: string;
  reason: string;
}

export type SourceStatus = 'ok' | 'skipped' | 'unavailable' | 'failed';

export interface SourceReport {
  source: SourceName;
  status: SourceStatus;
  /** Why the source was not used (not selected, no git repository, no index, …). */
  reason?: string;
  candidates: number;
  ms: number;
}

export type AskPhase = 'analysing' | 'searching' | 'ranking' | 'assembling' | 'synthesising' | 'logging';

export type AnswerMode = 'extractive' | 'model' | 'none';

/** The stream `ask` yields. Every event is plain JSON. `ms` is the time since the ask started. */
export type AskEvent =
  | { type: 'phase'; phase: AskPhase; message: string; ms: number }
  | { type: 'analysis'; analysis: QuestionAnalysis; ms: number }
  | { type: 'source'; report: SourceReport; ms: number }
  | { type: 'evidence'; n: number; evidence: Evidence; citation: Citation; ms: number }
  | { type: 'answer'; delta: string; ms: number }
  | { type: 'citations'; citations: Citation[]; ms: number }
  | { type: 'done'; result: AskResult; ms: number };

export interface AskStats {
  firstEvidenceMs?: number;
  firstAnswerMs?: number;
  totalMs: number;
  /** Tokens of the assembled context (evidence, repo map, conversation) against the budget. */
  contextTokens: number;
  budget: number;
  evidence: number;
  citations: number;
  /** Citations dropped because the file no longer held the cited text (index older than the file). */
  droppedCitations: number;
  /** Citation numbers in the model's prose that matched no evidence, removed from the answer (0 without a model). */
  inventedCitations: number;
}

export interface AskResult {
  question: string;
  analysis: QuestionAnalysis;
  mode: AnswerMode;
  /** Model name when mode is `model`. */
  model?: string;
  /** Set when the model call failed and the extractive answer was given instead. */
  modelError?: string;
  answer: string;
  /** True when nothing relevant was found: the answer says so and no model was called. */
  noContext: boolean;
  citations: Citation[];
  evidence: Evidence[];
  sources: SourceReport[];
  /** Workspace-relative path of the session log the exchange was appended to. */
  loggedTo?: string;
  session?: string;
  /** The synthesis prompt, when asked for with `includePrompt` (and there was evidence). */
  prompt?: { role: 'system' | 'user' | 'assistant'; content: string }[];
  stats: AskStats;
  explain?: ExplainData;
}

export interface ExplainCandidate {
  key: string;
  source: SourceName;
  method: RetrievalMethod;
  title: string;
  relevance: number;
  score: number;
}

export interface RerankDecision {
  key: string;
  before: number;
  after: number;
  /** What moved it: `merged 2 paths`, `test boost`, `below relevance cut-off`, … */
  why: string;
}

export interface ExplainData {
  /** Each retrieval path that ran, with its candidate count and time. */
  paths: { source: SourceName; method: RetrievalMethod; candidates: number; ms: number; note?: string }[];
  /** Raw candidates with scores, best first per path (capped). */
  candidates: ExplainCandidate[];
  rerank: RerankDecision[];
  /** Relevance cut-off applied and the best relevance seen. */
  gate: { cutoff: number; best: number };
  /** Evidence the budget left out. */
  budgetCut: { key: string; tokens: number }[];
  repoMap?: { tokens: number; note?: string };
  conversation?: { exchanges: number; compressed: number; tokens: number };
  index: IndexFreshness;
  /** What code retrieval was wired to in this engine (full-text search, smart context, exact navigation). */
  wiring: string[];
  /**
   * Smart context's nodes for this question with the weighted signals behind each score: the run the answer used,
   * so a panel showing them asks nothing again. Absent when smart context did not run.
   */
  signals?: ExplainSignalRow[];
  /** Distinct secrets redacted from the answer (engine config `redactSecrets`); absent when redaction is off. */
  redacted?: number;
}

/** One node of smart context with the weighted signals behind its score (each 0..1 before weighting). */
export interface ExplainSignalRow {
  id: string;
  path: string;
  line: number;
  score: number;
  reason: string;
  signals: Record<string, number>;
}

export interface IndexFreshness {
  exists: boolean;
  updatedAt?: string;
  ageMs?: number;
  /** Evidence files changed on disk after they were indexed. */
  staleFiles: string[];
}

/** An OpenAI-compatible chat-completions endpoint the user configured. */
export interface ModelSettings {
  /** e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1`; `/chat/completions` is appended. */
  baseUrl: string;
  model: string;
  /** Name of the environment variable holding the API key (never the key itself); absent for local servers. */
  apiKeyEnv?: string;
  /** Most tokens the answer may use (default 800). */
  maxOutputTokens?: number;
  temperature?: number;
}

/**
 * The user's own model configuration, resolved by the host from user-level sources only (editor user settings,
 * environment, the user config file, flags); never from a workspace file.
 */
export interface UserModelConfig {
  /** The user's model endpoint; absent: none configured. */
  model?: ModelSettings;
  /**
   * Whether the model named in `.context-oracle/oracle.json` may be used: `true` (the user passed
   * `--trust-workspace-config`) or the fingerprint (workspaceModelFingerprint) of the one the user approved.
   */
  trustWorkspaceModel?: boolean | string;
  /** How to approve a workspace model in this host, said when one is ignored. */
  approveHint?: string;
}

export interface AskOptions {
  /** Sources to search (default all four). */
  sources?: SourceName[];
  /** Token budget of the assembled context (default 6,000). */
  maxTokens?: number;
  explain?: boolean;
  /** A model to synthesise with; `null` forces the extractive answer even when one is configured. */
  model?: ModelSettings | null;
  /** Markdown folders searched for docs (workspace-relative); default: the whole workspace. */
  docsFolders?: string[];
  /** Conversation shared across calls (a panel conversation, an MCP session); default: none. */
  session?: string;
  /** Who asked: an agent id or `user` (default); written to the session log. */
  author?: string;
  /** Append the exchange to the day's session log (default true). */
  log?: boolean;
  /**
   * Let the oracle's own earlier answers (its session logs) be evidence. Default: only when the question asks about
   * past sessions ("earlier session", "last time", "previous answer", "you said"); otherwise an answer never cites an answer.
   */
  pastSessions?: boolean;
  /**
   * Put the synthesis prompt (chat messages with the numbered evidence, repo map slice and conversation) in the
   * result, for hosts that run their own model (VS Code's Language Model API) on the same evidence.
   */
  includePrompt?: boolean;
  signal?: AbortSignal;
}
