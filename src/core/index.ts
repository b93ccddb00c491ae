/**
 * The engine's one public module: the only door into src/core for the hosts (cli, mcp, server, extension) and for
 * the layers beside them (src/node implements the ports, src/protocol declares the wire types). Everything a host
 * needs is named here, so what is public is written down in one place; scripts/check-boundaries.mjs fails the build
 * when a host reaches past it. webview-ui never imports it: it takes engine types through src/protocol/webview.ts,
 * which re-exports types only, so no engine code reaches the browser bundle.
 */

// The façade and what it is built from.
export { createEngine, type Engine } from './engine';
export { EngineError, writeFailure, type EngineErrorCode } from './errors';
export type * from './ports';
export type * from './model';
export { BUILTIN_EXCLUDES, DEFAULT_CONFIG, SETTINGS, type EngineConfig, type SettingSpec } from './config';
export { ENGINE_VERSION } from './version';
export { escapeRegExp } from './strings';
export { countTokens } from './tokens';
export { fill, largestPrefix, shedUntilWithin } from './budget/fit';

// Parsing, for the parser hosts src/node builds (in process or in a worker) and the editor's annotations.
export { LANGUAGES, languageForPath } from './parse/languages';
export { createInProcessParserHost } from './parse/in-process-parser-host';
export { TreeSitterService } from './parse/tree-sitter-service';
export { SYMBOL_KINDS, type ParseRequest, type ParseResult } from './parse/types';
export { findAnnotations, isAttached } from './parse/annotations';
export { memoryImage } from './store/paged-file';

// The oracle's DTOs and the model settings hosts read and check.
export {
  SOURCE_NAMES, type AskEvent, type AskOptions, type AskResult, type Citation, type Evidence, type ExplainData,
  type ModelSettings, type SourceName, type UserModelConfig,
} from './oracle/types';
export { MAX_QUESTION_CHARS } from './oracle/ask';
export { collectAnswer } from './answer-stream';
export { parseSettings, SETTINGS_FILE, validateModel } from './oracle/settings';
export { chooseModel, workspaceModelFingerprint } from './oracle/model-choice';
export type { ConversationView } from './oracle/conversation';

// Context, bundles, navigation and the repo map: DTOs and the renderers hosts print them with.
export { toContextJson } from './context/export-json';
export { parseGoldenLine, scoreGolden, summariseGolden, type GoldenQuestion, type GoldenScore } from './context/golden';
export { bundleToMarkdown } from './bundle/markdown';
export { isUnchanged, type BundleResult } from './bundle/types';
export { symbolFromQuestion } from './question/symbol';
export { mentionsFromText } from './repomap/mentions';

// The knowledge graph and its rules.
export { renderWhy, type WhyResult, type WhyTreeNode } from './graph/why';
export type { GraphView } from './graph/view';
export type { ConceptResult, QueryEnvelope } from './graph/query';
export type { GraphStatus } from './graph/status';
export type { StarterGraphProposal, SyncOutcome } from './graph/service';
export type { ChatMessage } from './llm/chat-completions';
export type { CodeSymbol } from './graph/code-view';
export type { NodeSummary } from './graph/knowledge';
export { formatKnowledgeHits } from './graph/search';
export type { SyncPair } from './docs/sync';
export { formatPorcelain, formatRich, lintExitCode, type LintReport } from './rules/lint';
export { VALID_NODE_KINDS, type Violation } from './rules/types';
