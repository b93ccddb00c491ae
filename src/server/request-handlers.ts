/**
 * One handler per custom request (a mapped type over OracleRequests: a request declared in src/protocol without a
 * handler here fails to compile). Independent of the LSP library: cancellation arrives as an AbortSignal and
 * notifications leave through `notify`, so the table runs in plain Node tests too.
 */
import { collectAnswer, type DefinitionHit, type Engine, EngineError, type IndexOutcome, type ReferenceHit, SOURCE_NAMES, type SourceName } from '../core';
import type {
  AskDone, AskParams, ModelInUse, OracleNotificationMethod, OracleNotifications, OracleRequestMethod, OracleRequests,
} from '../protocol/language-server';
import { checkedParams } from './checked-params';
import { fileInsights, problems, refIdSuggestions, symbolAt } from './editor-insights';
import { combineActivity, combineFreshness, combineStatus } from './combined-activity';
import { askEventsIn, freshnessIn, hitIn, insightsIn, type PathMap, problemsIn, symbolAtIn, withHits } from './folder-results';
import type { ServedFolder, WorkspaceFolders } from './workspace-folders';

export type RequestHandlers = {
  [M in OracleRequestMethod]: (params: OracleRequests[M]['params'], signal: AbortSignal) => Promise<OracleRequests[M]['result']>;
};

export type Notify = <M extends OracleNotificationMethod>(method: M, params: OracleNotifications[M]) => void;

const optional = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } =>
  (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };

/** The folders' index reports added up (counts and times); `full` when any run was. */
function addOutcomes(outcomes: IndexOutcome[]): IndexOutcome {
  const sum = { ...outcomes[0]! } as unknown as Record<string, unknown>;
  for (const o of outcomes.slice(1)) {
    for (const [k, v] of Object.entries(o)) {
      if (typeof v === 'number' && typeof sum[k] === 'number') sum[k] = (sum[k] as number) + v;
      else if (typeof v === 'boolean' && typeof sum[k] === 'boolean') sum[k] = (sum[k] as boolean) || v;
    }
  }
  return sum as unknown as IndexOutcome;
}

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

/**
 * A question goes to the folder whose evidence answers it best: each folder is probed with the extractive answer
 * (no model, nothing logged) and the one whose best evidence holds the largest share of the question's terms (then
 * the highest score) is asked for real. Two models' answers cannot be merged into one, and the active editor's folder
 * is often not where the answer lives; relevance is a 0..1 share, comparable between indexes, where scores are not.
 */
async function folderFor(folders: WorkspaceFolders, params: AskParams, signal: AbortSignal): Promise<ServedFolder> {
  if (!folders.several()) return folders.primary();
  let best: { folder: ServedFolder; relevance: number; score: number } | undefined;
  for (const folder of folders.list()) {
    const probe = await folder.session.engine().askAll(params.question, { model: null, log: false, signal, sources: ['code', 'docs'], ...optional('maxTokens', params.maxTokens) })
      .catch((e: unknown) => { if (EngineError.is(e, 'cancelled')) throw e; return undefined; });
    if (!probe || probe.noContext) continue;
    const top = probe.evidence.reduce((b, e) => (e.relevance > b.relevance || (e.relevance === b.relevance && e.score > b.score) ? e : b), { relevance: -1, score: -Infinity });
    if (!best || top.relevance > best.relevance || (top.relevance === best.relevance && top.score > best.score)) best = { folder, relevance: top.relevance, score: top.score };
  }
  return best?.folder ?? folders.primary();
}

/** Every folder's answer (several folders) in order; not_found everywhere is the first folder's not_found. */
async function fromEveryFolder<T>(folders: WorkspaceFolders, run: (folder: ServedFolder) => Promise<T>): Promise<Array<{ folder: ServedFolder; result: T }>> {
  const settled = await Promise.allSettled(folders.list().map(async (folder): Promise<{ folder: ServedFolder; result: T }> => ({ folder, result: (await run(folder)) as T })));
  const found = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failures = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected').map((s) => s.reason as unknown);
  // Only "not here" is expected from a folder; any other failure is the answer.
  const real = failures.find((e) => !EngineError.is(e, 'not_found'));
  if (real !== undefined) throw real;
  if (!found.length) throw failures[0] ?? new EngineError('not_initialized', 'no workspace folder is open');
  return found;
}

export function createRequestHandlers(folders: WorkspaceFolders, notify: Notify, modelInUse: () => Promise<ModelInUse>): RequestHandlers {
  const engine = (): Engine => folders.primary().session.engine();
  const out = (folder: ServedFolder): PathMap => (p) => folders.outPath(folder, p);
  /** A symbol or ref_id that names a folder goes there; a bare one to every folder (navigation) or the primary. */
  const named = (ref: string): boolean => folders.several() && folders.list().some((f) => ref.startsWith(`${f.name}/`));
  // The folder each conversation's questions went to: its follow-ups read the same conversation.
  const sessions = new Map<string, string>();
  const conversationFolder = (session: string | undefined): ServedFolder =>
    (session ? folders.byName(sessions.get(session) ?? '') : undefined) ?? folders.primary();

  async function navigate<R extends { results: Array<DefinitionHit | ReferenceHit> }>(
    symbol: string, run: (e: Engine, symbol: string) => Promise<R>,
  ): Promise<R> {
    if (!folders.several() || named(symbol)) {
      const { folder, path } = folders.route(symbol);
      const r = await run(folder.session.engine(), path);
      return folders.several() ? withHits(r, out(folder)) : r;
    }
    const all = await fromEveryFolder<R>(folders, (f) => run(f.session.engine(), symbol));
    const [first, ...rest] = all.map(({ folder, result }) => withHits(result, out(folder)));
    return { ...first!, results: [first!, ...rest].flatMap((r) => r.results) } as R;
  }

  const handlers: RequestHandlers = {
    'contextOracle/index': async (params, signal) => {
      // One folder after another: two runs at once only share the same cores.
      const outcomes = [];
      for (const f of folders.list()) outcomes.push(await f.session.index(params, signal));
      if (!outcomes.length) throw new EngineError('not_initialized', 'no workspace folder is open, so there is nothing to index');
      return outcomes.length === 1 ? outcomes[0]! : addOutcomes(outcomes);
    },
    'contextOracle/status': async () => {
      if (!folders.several()) return folders.primary().session.status();
      const each = await Promise.all(folders.list().map(async (f) => ({ folder: f, status: await f.session.status() })));
      const activity = combineActivity(each.map((e) => ({ name: e.folder.name, activity: { ...e.status.activity, status: e.status.index } })));
      const stamps = each.flatMap((e) => (e.status.index.freshness ? [freshnessIn(e.status.index.freshness, out(e.folder))] : []));
      return { index: { ...combineStatus(each.map((e) => e.status.index))!, ...(stamps.length ? { freshness: combineFreshness(stamps) } : {}) }, activity };
    },
    'contextOracle/cancelIndex': async () => ({ cancelled: folders.list().reduce((n, f) => n + f.session.cancel(), 0) }),
    'contextOracle/search': async (params) => {
      if (!folders.several()) return folders.primary().session.search(params);
      const all = await fromEveryFolder(folders, (f) => f.session.search(params));
      const hits = all.flatMap(({ folder, result }) => result.map((h) => hitIn(h, out(folder))));
      return hits.sort((a, b) => b.score - a.score).slice(0, params.limit ?? hits.length);
    },
    'contextOracle/ask': async (params, signal) => {
      const folder = params.session && sessions.has(params.session) ? conversationFolder(params.session) : await folderFor(folders, params, signal);
      if (params.session) sessions.set(params.session, folder.name);
      if (!folders.several()) return ask(folder.session.engine(), params, signal, notify);
      const rewrite = askEventsIn(out(folder));
      const done = await ask(folder.session.engine(), params, signal, (method, p) => {
        if (method === 'contextOracle/askEvent') {
          const e = p as OracleNotifications['contextOracle/askEvent'];
          for (const event of rewrite(e.event)) notify('contextOracle/askEvent', { id: e.id, event });
        } else notify(method, p);
      });
      // The done event flushes what the rewriter held back, as a last answer event before the result.
      const last = rewrite(done);
      for (const event of last.slice(0, -1)) notify('contextOracle/askEvent', { id: params.id, event });
      return last.at(-1) as AskDone;
    },
    'contextOracle/conversation': async (params) => (await conversationFolder(params.session).session.engine().conversation(params.session)) ?? null,
    'contextOracle/definitions': (params, signal) => navigate(params.symbol, (e, symbol) => e.definitions(symbol, { signal, ...optional('limit', params.limit) })),
    'contextOracle/references': (params, signal) => navigate(params.symbol, (e, symbol) => e.references(symbol, { signal, ...optional('limit', params.limit) })),
    'contextOracle/implementations': (params, signal) => navigate(params.symbol, (e, symbol) => e.implementations(symbol, { signal, ...optional('limit', params.limit) })),
    'contextOracle/repoMap': async (params) => {
      const { folder, path: scope } = folders.route(params.scope ?? '');
      return folder.session.engine().repoMap({
        ...optional('maxTokens', params.maxTokens), ...optional('scope', scope || undefined),
        ...optional('mentionedFiles', params.mentionedFiles), ...optional('mentionedIdents', params.mentionedIdents),
      });
    },
    'contextOracle/bundle': async (params) => {
      const { folder } = folders.route(params.refIds[0] ?? '');
      return folder.session.engine().contextBundle(params.refIds.map((r) => folders.route(r).path), {
        ...optional('maxTokens', params.maxTokens), ...optional('depth', params.depth),
      });
    },
    'contextOracle/why': async (params) => {
      const { folder, path: refId } = folders.route(params.refId);
      return folder.session.engine().why(refId, { ...optional('depth', params.depth), ...optional('reverse', params.reverse === true ? true : undefined) });
    },
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
    'contextOracle/symbolAt': async (params) => {
      const { folder, path } = folders.route(params.path);
      return symbolAtIn(await symbolAt(folder.session.engine(), path, params.line), path, out(folder));
    },
    'contextOracle/fileInsights': async (params) => {
      const { folder, path } = folders.route(params.path);
      return insightsIn(await fileInsights(folder.session.engine(), path, params.text), out(folder));
    },
    'contextOracle/problems': async () => {
      const all = await Promise.all(folders.list().map(async (f) => problemsIn(await problems(f.session.engine()), out(f))));
      return { staleDocs: all.flatMap((p) => p.staleDocs), violations: all.flatMap((p) => p.violations) };
    },
    'contextOracle/syncNow': async () => {
      const stamps = [];
      for (const f of folders.list()) {
        await f.session.engine().syncNow();
        stamps.push(freshnessIn(await f.session.engine().freshness(), out(f)));
      }
      const stamp = combineFreshness(stamps);
      notify('contextOracle/freshness', stamp);
      return stamp;
    },
    'contextOracle/model': async () => modelInUse(),
    'contextOracle/freshness': async () => combineFreshness(await Promise.all(folders.list().map(async (f) => freshnessIn(await f.session.engine().freshness(), out(f))))),
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
