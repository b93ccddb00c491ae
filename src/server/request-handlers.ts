/**
 * One handler per custom request (a mapped type over OracleRequests: a request declared in src/protocol without a
 * handler here fails to compile). Independent of the LSP library: cancellation arrives as an AbortSignal and
 * notifications leave through `notify`, so the table runs in plain Node tests too.
 */
import { collectAnswer, type Engine, EngineError, SOURCE_NAMES, type SourceName } from '../core';
import type {
  AskDone, OracleNotificationMethod, OracleNotifications, OracleRequestMethod, OracleRequests,
} from '../protocol/language-server';
import { fileInsights, problems, refIdSuggestions, symbolAt } from './editor-insights';
import type { IndexSession } from './index-session';

export type RequestHandlers = {
  [M in OracleRequestMethod]: (params: OracleRequests[M]['params'], signal: AbortSignal) => Promise<OracleRequests[M]['result']>;
};

export type Notify = <M extends OracleNotificationMethod>(method: M, params: OracleNotifications[M]) => void;

/** The webview and other clients are not trusted to send well-formed params: check what the engine relies on. */
function text(value: unknown, name: string): string {
  if (typeof value !== 'string' || !value.trim()) throw new EngineError('required', `${name} must be a non-empty string`);
  return value;
}

function optNumber(value: unknown, name: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw new EngineError('invalid_input', `${name} must be a positive number`);
  return value;
}

function strings(value: unknown, name: string): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw new EngineError('invalid_input', `${name} must be a list of strings`);
  return value as string[];
}

const optional = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } =>
  (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };

async function ask(engine: Engine, params: OracleRequests['contextOracle/ask']['params'], signal: AbortSignal, notify: Notify): Promise<AskDone> {
  const id = text(params?.id, 'id');
  const question = text(params.question, 'question');
  const sources = params.sources === undefined ? undefined
    : strings(params.sources, 'sources').filter((s): s is SourceName => (SOURCE_NAMES as readonly string[]).includes(s));
  const stream = engine.ask(question, {
    signal, explain: params.explain === true, author: 'user',
    ...optional('session', typeof params.session === 'string' && params.session ? params.session : undefined),
    ...optional('sources', sources), ...optional('maxTokens', optNumber(params.maxTokens, 'maxTokens')),
  });
  // The result crosses once: the `done` event is the response, not a notification as well.
  let done: AskDone | undefined;
  await collectAnswer(stream, (event) => {
    if (event.type === 'done') done = event;
    else notify('contextOracle/askEvent', { id, event });
  });
  if (signal.aborted) throw new EngineError('cancelled', 'the question was cancelled');
  return done!;
}

export function createRequestHandlers(session: IndexSession, notify: Notify): RequestHandlers {
  const engine = (): Engine => session.engine();
  // Every handler is async, so a bad parameter is a rejected promise like any other failure.
  return {
    'contextOracle/index': async (params, signal) => session.index(params ?? {}, signal),
    'contextOracle/status': async () => session.status(),
    'contextOracle/cancelIndex': async () => ({ cancelled: session.cancel() }),
    'contextOracle/search': async (params) => session.search(params),
    'contextOracle/ask': async (params, signal) => ask(engine(), params, signal, notify),
    'contextOracle/conversation': async (params) => (await engine().conversation(text(params?.session, 'session'))) ?? null,
    'contextOracle/definitions': (params, signal) =>
      engine().definitions(text(params?.symbol, 'symbol'), { signal, ...optional('limit', optNumber(params.limit, 'limit')) }),
    'contextOracle/references': (params, signal) =>
      engine().references(text(params?.symbol, 'symbol'), { signal, ...optional('limit', optNumber(params.limit, 'limit')) }),
    'contextOracle/implementations': (params, signal) =>
      engine().implementations(text(params?.symbol, 'symbol'), { signal, ...optional('limit', optNumber(params.limit, 'limit')) }),
    'contextOracle/repoMap': async (params) => engine().repoMap({
      ...optional('maxTokens', optNumber(params?.maxTokens, 'maxTokens')),
      ...optional('scope', typeof params?.scope === 'string' && params.scope ? params.scope : undefined),
      ...optional('mentionedFiles', params?.mentionedFiles === undefined ? undefined : strings(params.mentionedFiles, 'mentionedFiles')),
      ...optional('mentionedIdents', params?.mentionedIdents === undefined ? undefined : strings(params.mentionedIdents, 'mentionedIdents')),
    }),
    'contextOracle/bundle': async (params) => engine().contextBundle(strings(params?.refIds, 'refIds'), {
      ...optional('maxTokens', optNumber(params.maxTokens, 'maxTokens')), ...optional('depth', optNumber(params.depth, 'depth')),
    }),
    'contextOracle/why': async (params) => engine().why(text(params?.refId, 'refId'), {
      ...optional('depth', optNumber(params.depth, 'depth')), ...optional('reverse', params.reverse === true ? true : undefined),
    }),
    'contextOracle/graphView': async (params) => engine().graphView(
      params?.refIds === undefined ? undefined : strings(params.refIds, 'refIds'), { ...optional('depth', optNumber(params?.depth, 'depth')) },
    ),
    'contextOracle/lint': async () => engine().lint(),
    'contextOracle/docSync': async (params) => engine().sync({
      ...optional('check', params?.check === true ? true : undefined),
      ...optional('mark', params?.mark === undefined ? undefined : strings(params.mark, 'mark')),
    }),
    'contextOracle/context': async (params, signal) => engine().getContextForQuestion(text(params?.question, 'question'), {
      signal, ...optional('maxTokens', optNumber(params.maxTokens, 'maxTokens')),
      ...optional('format', params.format === 'mu' || params.format === 'json' || params.format === 'markdown' ? params.format : undefined),
    }),
    'contextOracle/refIds': async (params) => refIdSuggestions(engine(), typeof params?.query === 'string' ? params.query : undefined, optNumber(params?.limit, 'limit')),
    'contextOracle/symbolAt': async (params) => symbolAt(engine(), text(params?.path, 'path'), optNumber(params.line, 'line') ?? 1),
    'contextOracle/fileInsights': async (params) => fileInsights(engine(), text(params?.path, 'path'), typeof params.text === 'string' ? params.text : ''),
    'contextOracle/problems': async () => problems(engine()),
    'contextOracle/syncNow': async () => {
      await engine().syncNow();
      const stamp = await engine().freshness();
      notify('contextOracle/freshness', stamp);
      return stamp;
    },
    'contextOracle/freshness': async () => engine().freshness(),
  };
}
