/**
 * The oracle behind the engine façade: one per engine, holding what lives between questions (parsed markdown,
 * session conversations). `ask` streams events; `askAll` collects them; `remember` and `conversation` let the other
 * tools of a session (MCP find_definition, search_code, …) share the conversation.
 */
import type { EngineConfig } from '../config';
import type { EngineDeps } from '../ports';
import { askQuestion, collectAnswer } from './ask';
import type { CodeRetrieval } from './code-retrieval';
import { createConversationStore, extractiveSummariser, type ConversationView, type Exchange, type ExchangeInput } from './conversation';
import { createFileCache } from './file-cache';
import { createMarkdownCache } from './markdown-files';
import type { OracleEnv } from './oracle-env';
import { chooseModel } from './model-choice';
import { loadOracleSettings } from './settings';
import { modelSummariser, resolveKey } from './synthesis';
import type { AskEvent, AskOptions, AskResult, ModelSettings } from './types';

export interface Oracle {
  ask(question: string, options?: AskOptions): AsyncIterable<AskEvent>;
  askAll(question: string, options?: AskOptions): Promise<AskResult>;
  remember(session: string, exchange: ExchangeInput): Exchange;
  /** The session's conversation as a model sees it (compressed lazily, here, when over 80 % of its budget). */
  conversation(session: string): Promise<ConversationView | undefined>;
}

/** A question's code retrieval, bound to its index request, and how to let go of that request when it is answered. */
export interface QuestionCode {
  code: CodeRetrieval;
  close(): void;
}

export function createOracle(deps: EngineDeps, cfg: EngineConfig, codeFor: (question: string) => QuestionCode): Oracle {
  const env: Omit<OracleEnv, 'code'> = {
    root: deps.root, fs: deps.fs, logger: deps.logger, clock: deps.clock,
    ...(deps.git ? { git: deps.git } : {}),
    ...(deps.http ? { http: deps.http } : {}),
    ...(deps.env ? { env: deps.env } : {}),
    ...(deps.userModel ? { userModel: deps.userModel } : {}),
    ignoredNoted: new Set(),
    ...(deps.writer ? { writer: deps.writer } : {}),
    ...(deps.sessionLogDir ? { sessionLogDir: deps.sessionLogDir } : {}),
    sessionLogs: cfg.sessionLogs,
    markdown: createMarkdownCache(() => deps.clock.now()),
    gitLog: {},
    conversations: createConversationStore({ now: () => deps.clock.now(), logger: deps.logger, ...(deps.cache ? { persist: deps.cache } : {}) }),
    files: () => createFileCache(deps.root, deps.fs),
    exclude: cfg.exclude,
    respectGitignore: cfg.respectGitignore,
  };
  // The model a session last asked with also compresses its conversation (the configured one otherwise).
  const sessionModels = new Map<string, ModelSettings>();
  const start = (question: string, options: AskOptions = {}): AsyncIterable<AskEvent> => {
    if (options.session && options.model) {
      sessionModels.delete(options.session);
      sessionModels.set(options.session, options.model);
      if (sessionModels.size > 100) sessionModels.delete(sessionModels.keys().next().value!);
    }
    return answering(codeFor(question), (code) => askQuestion({ ...env, code }, question, options));
  };
  return {
    ask: start,
    askAll: (question, options) => collectAnswer(start(question, options)),
    remember: (session, exchange) => env.conversations.record(session, exchange),
    async conversation(session) {
      await env.conversations.load(session);
      const settings = await loadOracleSettings(env.root, env.fs);
      const model = sessionModels.get(session) ?? chooseModel(undefined, env.userModel?.current() ?? {}, settings.model).model;
      const access = { ...(env.http ? { http: env.http } : {}), ...(env.env ? { env: env.env } : {}) };
      const key = model ? resolveKey(access, model) : undefined;
      const summarise = model && !key?.problem ? modelSummariser(access, model, key?.key) : extractiveSummariser;
      return env.conversations.read(session, summarise);
    },
  };
}

/** The question's events; its code retrieval is let go of when they end (or the caller stops reading). */
async function* answering(question: QuestionCode, ask: (code: CodeRetrieval) => AsyncIterable<AskEvent>): AsyncGenerator<AskEvent> {
  try {
    yield* ask(question.code);
  } finally {
    question.close();
  }
}
