/**
 * One handler per custom request (a mapped type over OracleRequests: a request declared in src/protocol without a
 * handler here fails to compile). Independent of the LSP library: cancellation arrives as an AbortSignal and
 * notifications leave through `notify`, so the table runs in plain Node tests too.
 */
import { collectAnswer, type Engine, EngineError, SOURCE_NAMES, type SourceName } from '../core';
import type {
  AskDone, OracleNotificationMethod, OracleNotifications, OracleRequestMethod, OracleRequests,
} from '../protocol/language-server';
import { checkedParams } from './checked-params';
import { fileInsights, problems, refIdSuggestions, symbolAt } from './editor-insights';
import type { IndexSession } from './index-session';

export type RequestHandlers = {
  [M in OracleRequestMethod]: (params: OracleRequests[M]['params'], signal: AbortSignal) => Promise<OracleRequests[M]['result']>;
};

export type Notify = <M extends OracleNotificationMethod>(method: M, params: OracleNotifications[M]) => void;

const optional = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } =>
  (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };

async function ask(engine: Engine, params: OracleRequests['contextOracle/ask']['params'], signal: AbortSignal, notify: Notify): Promise<AskDone> {
  const { id, question } = params;
  const sources = params.sources?.filter((s): s is SourceName => (SOURCE_NAMES as readonly string[]).includes(s));
  const stream = engine.ask(question, {
    signal, explain: params.explain === true, author: 'user',
    ...optional('session', params.session || undefined), ...optional('sources', sources), ...optional('maxTokens', params.maxTokens),
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
  const handlers: RequestHandlers = {
    'contextOracle/index': async (params, signal) => session.index(params, signal),
    'contextOracle/status': async () => session.status(),
    'contextOracle/cancelIndex': async () => ({ cancelled: session.cancel() }),
    'contextOracle/search': async (params) => session.search(params),
    'contextOracle/ask': async (params, signal) => ask(engine(), params, signal, notify),
    'contextOracle/conversation': async (params) => (await engine().conversation(params.session)) ?? null,
    'contextOracle/definitions': (params, signal) => engine().definitions(params.symbol, { signal, ...optional('limit', params.limit) }),
    'contextOracle/references': (params, signal) => engine().references(params.symbol, { signal, ...optional('limit', params.limit) }),
    'contextOracle/implementations': (params, signal) => engine().implementations(params.symbol, { signal, ...optional('limit', params.limit) }),
    'contextOracle/repoMap': async (params) => engine().repoMap({
      ...optional('maxTokens', params.maxTokens), ...optional('scope', params.scope || undefined),
      ...optional('mentionedFiles', params.mentionedFiles), ...optional('mentionedIdents', params.mentionedIdents),
    }),
    'contextOracle/bundle': async (params) => engine().contextBundle(params.refIds, {
      ...optional('maxTokens', params.maxTokens), ...optional('depth', params.depth),
    }),
    'contextOracle/why': async (params) => engine().why(params.refId, {
      ...optional('depth', params.depth), ...optional('reverse', params.reverse === true ? true : undefined),
    }),
    'contextOracle/graphView': async (params) => engine().graphView(params.refIds, { ...optional('depth', params.depth) }),
    'contextOracle/lint': async () => engine().lint(),
    'contextOracle/starterGraph': async () => engine().starterGraph(),
    'contextOracle/docSync': async (params) => engine().sync({
      ...optional('check', params.check === true ? true : undefined), ...optional('mark', params.mark),
    }),
    'contextOracle/context': async (params, signal) => engine().getContextForQuestion(params.question, {
      signal, ...optional('maxTokens', params.maxTokens), ...optional('format', params.format),
    }),
    'contextOracle/refIds': async (params) => refIdSuggestions(engine(), params.query, params.limit),
    'contextOracle/symbolAt': async (params) => symbolAt(engine(), params.path, params.line),
    'contextOracle/fileInsights': async (params) => fileInsights(engine(), params.path, params.text),
    'contextOracle/problems': async () => problems(engine()),
    'contextOracle/syncNow': async () => {
      await engine().syncNow();
      const stamp = await engine().freshness();
      notify('contextOracle/freshness', stamp);
      return stamp;
    },
    'contextOracle/freshness': async () => engine().freshness(),
  };
  // Clients are not trusted to send well-formed params: every request is checked against its declared schema first,
  // inside the async handler, so a bad param is a rejected promise like any other failure.
  const checked = {} as Record<OracleRequestMethod, (params: unknown, signal: AbortSignal) => Promise<unknown>>;
  for (const method of Object.keys(handlers) as OracleRequestMethod[]) {
    const handle = handlers[method] as (params: unknown, signal: AbortSignal) => Promise<unknown>;
    checked[method] = async (params, signal) => handle(checkedParams(method, params), signal);
  }
  return checked as RequestHandlers;
}
