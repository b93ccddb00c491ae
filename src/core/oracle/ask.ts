/**
 * The oracle's flow for one question, as a stream of plain events: analyse → search every selected source in
 * parallel → merge, rerank, gate → (history for change questions) → verify citations → assemble within the budget
 * → answer (model, streamed, or extractive) → log the exchange → done. Nothing relevant → the honest
 * "no relevant project context found", without a model call.
 */
import { EngineError, throwIfAborted } from '../errors';
import { countTokens } from '../tokens';
import { oracleAnalysis, shortName } from './analyse';
import { analyseQuestion } from '../question/analysis';
import { classifyPath } from '../context/paths';
import { stem, textTerms } from '../context/terms';
import { assemble, DEFAULT_BUDGET, MAP_SHARE } from './budget';
import { createCitationFilter, removedCitationsNote, type CitationFilter } from './citation-filter';
import { verifyEvidence } from './citations';
import { extractiveSummariser, fitConversation, type ConversationView } from './conversation';
import { citationList, extractiveParts, noContextAnswer, type AnswerFacts } from './extractive';
import { orderByRole, roleOf } from './roles';
import { buildExplain, indexFreshness } from './explain';
import type { OracleEnv } from './oracle-env';
import { buildMessages } from './prompt';
import { rankCandidates, type Ranked } from './rank';
import { parseSources, retrieve, type Retrieved } from './retrieve';
import { appendSessionLog } from './session-log';
import { chooseModel } from './model-choice';
import { loadOracleSettings } from './settings';
import { historyOf } from './sources/git';
import type { Candidate, SourceContext } from './sources/source';
import { modelSummariser, resolveKey, streamAnswer } from './synthesis';
import type { AnswerMode, AskEvent, AskOptions, AskResult, Citation, Evidence, ModelSettings, QuestionAnalysis } from './types';

/** Longest question ask() takes (the MCP tool caps its argument at it). */
export const MAX_QUESTION_CHARS = 4000;
/** Share of the budget the conversation may take in a prompt. */
const CONVERSATION_SHARE = 0.25;

export async function* askQuestion(env: OracleEnv, question: string, options: AskOptions = {}): AsyncGenerator<AskEvent> {
  const t0 = env.clock.now();
  const ms = (): number => env.clock.now() - t0;
  throwIfAborted(options.signal);
  const q = question.trim();
  if (!q) throw new EngineError('required', 'the question is empty');
  if (q.length > MAX_QUESTION_CHARS) throw new EngineError('invalid_input', `the question is ${q.length} characters long; the limit is ${MAX_QUESTION_CHARS}`);
  const selected = parseSources(options.sources);
  const budget = options.maxTokens ?? DEFAULT_BUDGET;
  if (!Number.isInteger(budget) || budget < 200) throw new EngineError('invalid_input', `maxTokens must be an integer of at least 200, got ${budget}`);
  const signal = options.signal;
  const settings = await loadOracleSettings(env.root, env.fs);
  const choice = chooseModel(options.model, env.userModel?.current() ?? {}, settings.model);
  const model: ModelSettings | undefined = choice.model;
  const author = options.author ?? settings.author ?? 'user';

  yield { type: 'phase', phase: 'analysing', message: 'analysing the question', ms: ms() };
  // The session may have gone on in another process (an earlier CLI run, the MCP server before a restart).
  if (options.session) await env.conversations.load(options.session);
  // The one analysis of the question: smart context gets it as it is, the oracle's view adds the conversation.
  const asked = analyseQuestion(q);
  const analysis = oracleAnalysis(asked, options.session ? { subject: env.conversations.lastSubject(options.session) } : {});
  yield { type: 'analysis', analysis, ms: ms() };

  yield { type: 'phase', phase: 'searching', message: `searching ${selected.join(', ')}`, ms: ms() };
  const ctx: SourceContext = {
    root: env.root, fs: env.fs, logger: env.logger, clock: env.clock, code: env.code, files: env.files(), markdown: env.markdown, gitLog: env.gitLog,
    docsFolders: options.docsFolders ?? settings.docsFolders, exclude: env.exclude, respectGitignore: env.respectGitignore,
    analysis, question: q, asked, pastSessions: options.pastSessions ?? asksAboutPastSessions(q), ...(env.git ? { git: env.git } : {}), ...(signal ? { signal } : {}),
  };
  const got: Retrieved = { candidates: [], stats: [], paths: [], reports: [] };
  for await (const report of retrieve(ctx, selected, got)) yield { type: 'source', report, ms: ms() };
  throwIfAborted(signal);

  yield { type: 'phase', phase: 'ranking', message: `ranking ${got.candidates.length} candidates`, ms: ms() };
  let allCandidates = got.candidates;
  let ranked = rankCandidates(allCandidates, analysis, got.stats);
  const gitReport = got.reports.find((r) => r.source === 'git');
  if (analysis.kind === 'change' && ranked.hasContext && gitReport?.status === 'ok') {
    const ranges = ranked.kept.filter((c) => c.evidence.source === 'code' && c.evidence.path).slice(0, 3)
      .map((c) => ({ path: c.evidence.path!, line: c.evidence.line!, endLine: c.evidence.endLine! }));
    const history = await historyOf(ctx, ranges);
    got.paths.push(...history.paths);
    gitReport.candidates += history.candidates.length;
    allCandidates = [...got.candidates, ...history.candidates];
    ranked = rankCandidates(allCandidates, analysis, got.stats);
  }
  const verdict = await verified(ctx, ranked);
  const dropped = verdict.dropped;
  // Cited in the order the answer reads: where it happens, how it is reached, tests, docs (history first for a
  // change question); best first within each.
  const lead = leadSymbol(verdict.kept, analysis);
  const kept = orderByRole(verdict.kept, analysis, q, lead);
  throwIfAborted(signal);

  const answerParts: string[] = [];
  let mode: AnswerMode = 'none';
  let modelError: string | undefined;
  let assembled: ReturnType<typeof assemble> | undefined;
  let firstEvidenceMs: number | undefined;
  let firstAnswerMs: number | undefined;
  let conversation: ConversationView | undefined;
  let mapNote: string | undefined;
  let prompt: AskResult['prompt'];
  let filter: CitationFilter | undefined;
  const say = (delta: string): AskEvent => {
    firstAnswerMs ??= ms();
    answerParts.push(delta);
    return { type: 'answer', delta, ms: ms() };
  };

  if (!ranked.hasContext || !kept.length) {
    yield say(noContextAnswer(got.reports, ranked.best));
    yield { type: 'citations', citations: [], ms: ms() };
  } else {
    yield { type: 'phase', phase: 'assembling', message: `assembling ${kept.length} pieces of evidence within ${budget} tokens`, ms: ms() };
    const access = { ...(env.http ? { http: env.http } : {}), ...(env.env ? { env: env.env } : {}) };
    const key = model ? resolveKey(access, model) : undefined;
    if (model && key?.problem) modelError = key.problem;
    else if (choice.ignored) modelError = choice.ignored;
    const useModel = model !== undefined && !key?.problem;
    const wantPrompt = useModel || options.includePrompt === true;
    if (wantPrompt && options.session) {
      const view = await env.conversations.read(options.session, useModel ? modelSummariser(access, model!, key?.key) : extractiveSummariser);
      // The conversation may take a quarter of the budget; evidence comes first.
      if (view) conversation = fitConversation(view, Math.floor(budget * CONVERSATION_SHARE));
    }
    const files = [...new Set(kept.map((c) => c.evidence.path).filter((p): p is string => !!p && !p.startsWith('.context-oracle/')))];
    let map: string | undefined;
    // The map tells a model where the evidence sits; the extractive answer does not use it, so it is not made.
    if (!wantPrompt) mapNote = 'not used by the extractive answer';
    else if (env.code.repoMapSlice && files.length && selected.includes('code')) {
      map = await env.code.repoMapSlice(files, Math.floor(budget * MAP_SHARE)).catch((e: unknown) => {
        mapNote = `repo map slice failed: ${e instanceof Error ? e.message : String(e)}`;
        return undefined;
      });
    } else mapNote = env.code.repoMapSlice ? 'no code evidence to place' : 'the engine has no repo map';
    const reserved = countTokens(q) + (conversation?.tokens ?? 0);
    assembled = assemble(kept.map((c) => c.evidence), budget, reserved, map);
    for (const [i, e] of assembled.evidence.entries()) {
      firstEvidenceMs ??= ms();
      yield { type: 'evidence', n: i + 1, evidence: e, citation: assembled.citations[i]!, ms: ms() };
    }
    yield { type: 'citations', citations: assembled.citations, ms: ms() };
    if (options.includePrompt) prompt = buildMessages(q, analysis, assembled.blocks, assembled.map, conversation);

    if (useModel) {
      mode = 'model';
      yield { type: 'phase', phase: 'synthesising', message: `asking ${model!.model}`, ms: ms() };
      try {
        const messages = buildMessages(q, analysis, assembled.blocks, assembled.map, conversation);
        filter = createCitationFilter(new Set(assembled.citations.map((c) => c.n)));
        for await (const delta of streamAnswer(access, model!, key?.key, messages, signal)) {
          const shown = filter.push(delta);
          if (shown) yield say(shown);
        }
        const rest = filter.flush();
        if (rest) yield say(rest);
        if (filter.removed.length) yield say(removedCitationsNote(filter.removed));
        yield say(citationList(assembled.citations));
      } catch (e) {
        if (EngineError.is(e, 'cancelled') || signal?.aborted) throw e;
        modelError = e instanceof Error ? e.message : String(e);
        mode = 'extractive';
        yield say(`${answerParts.length ? '\n\n' : ''}(The model could not answer: ${modelError}. The evidence follows.)\n\n`);
        for (const part of extractiveParts(analysis, assembled.evidence, assembled.citations, got.reports, await answerFacts(env, lead, assembled.evidence, signal))) yield say(part);
      }
    } else {
      mode = 'extractive';
      if (modelError === choice.ignored && choice.ignored) {
        // Said once per engine (a question file, an MCP session); the result still carries it as modelError.
        if (!env.ignoredNoted.has(choice.ignored)) yield say(`(Model not used: ${choice.ignored})\n\n`);
        env.ignoredNoted.add(choice.ignored);
      } else if (modelError) yield say(`(Model not used: ${modelError}.)\n\n`);
      for (const part of extractiveParts(analysis, assembled.evidence, assembled.citations, got.reports, await answerFacts(env, lead, assembled.evidence, signal))) yield say(part);
    }
  }

  const answer = answerParts.join('');
  const citations: Citation[] = assembled?.citations ?? [];
  const noContext = mode === 'none';
  let loggedTo: string | undefined;
  if (options.log !== false && env.writer) {
    yield { type: 'phase', phase: 'logging', message: 'appending to the session log', ms: ms() };
    try {
      const inWorkspace = !env.sessionLogDir || env.sessionLogs === 'workspace' || settings.sessionLogs === 'workspace';
      loggedTo = await appendSessionLog({ root: env.root, ...(inWorkspace ? {} : { dir: env.sessionLogDir }) }, env.fs, env.writer, env.clock, {
        question: q, answer, author, noContext, mode, ...(mode === 'model' ? { model: model!.model } : {}), ...(options.session ? { session: options.session } : {}),
      });
    } catch (e) {
      env.logger.warn(`oracle: could not append to the session log: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  if (options.session) {
    const evidence = assembled?.evidence ?? [];
    env.conversations.record(options.session, {
      tool: 'ask_oracle', input: q, output: answer,
      files: [...new Set(evidence.map((e) => e.path).filter((p): p is string => !!p))].slice(0, 10),
      ...(analysis.subject ? { symbols: [analysis.subject] } : {}),
    });
    await env.conversations.saved(options.session);
  }
  const evidence: Evidence[] = assembled?.evidence ?? [];
  const result: AskResult = {
    question: q, analysis, mode, answer, noContext, citations, evidence, sources: got.reports,
    ...(mode === 'model' ? { model: model!.model } : {}),
    ...(modelError ? { modelError } : {}),
    ...(loggedTo ? { loggedTo } : {}),
    ...(options.session ? { session: options.session } : {}),
    ...(prompt ? { prompt } : {}),
    stats: {
      ...(firstEvidenceMs !== undefined ? { firstEvidenceMs } : {}),
      ...(firstAnswerMs !== undefined ? { firstAnswerMs } : {}),
      totalMs: ms(), contextTokens: assembled?.tokens ?? 0, budget, evidence: evidence.length, citations: citations.length, droppedCitations: dropped,
      inventedCitations: filter?.removed.length ?? 0,
    },
  };
  if (options.explain) {
    result.explain = buildExplain({
      candidates: allCandidates, ranked, paths: got.paths, wiring: env.code.wiring, signals: env.code.contextSignals?.(),
      ...(assembled ? { assembled } : {}), ...(conversation ? { conversation } : {}), ...(mapNote ? { mapNote } : {}),
      index: await indexFreshness(env.code, ctx.files, evidence, env.clock.now()),
    });
  }
  yield { type: 'done', result, ms: ms() };
}

/**
 * A question about the oracle's own past sessions: the one case where its earlier answers are evidence. "session"
 * alone is not enough: code questions name sessions all the time ("where is the session token checked?").
 */
export function asksAboutPastSessions(question: string): boolean {
  return /\b(?:(?:past|previous|earlier|last|prior|oracle|our|my)\s+(?:oracle\s+)?sessions?|last\s+time|earlier\s+answers?|previous(?:ly)?\s+(?:answers?|asked|said)|(?:you|we)\s+(?:said|answered|told|suggested))\b/i.test(question);
}

/** Definitions among which the answer's lead is chosen when smart context ranked none of their files. */
const LEAD_POOL = 4;
/** Smart context's first files, where the lead is looked for (R@5's five: leading with one keeps R@5). */
const LEAD_FILES = 5;
const CALLABLE = new Set(['function', 'method', 'macro']);

/**
 * The symbol an answer is about, where the behaviour happens: in the best-ranked of smart context's first files that
 * has one, the function or method whose own name (counted double) and doc comment hold most words of the question
 * ("match" for "how does the router match…"); else the first function of the top-ranked file; else what the top-ranked file defines whose name holds
 * most of the question. The function that does the work, not the type it takes or an adapter beside it. Without smart
 * context's order, the same among the best few definitions.
 */
export function leadSymbol(kept: Candidate[], a: QuestionAnalysis): string | undefined {
  const defs = kept.filter((c) => c.evidence.meta?.defLine && c.evidence.meta.symbol && roleOf(c.evidence) === 'where');
  const rank = (c: Candidate): number => c.fileRank ?? Infinity;
  const near = defs.some((c) => c.fileRank !== undefined) ? defs.filter((c) => rank(c) < LEAD_FILES).sort((x, y) => rank(x) - rank(y)) : defs.slice(0, LEAD_POOL).map((c) => ({ ...c, fileRank: 0 }));
  const asked = new Set(a.terms.map(stem));
  const held = (text: string): number => new Set(textTerms(text).map(stem).filter((t) => asked.has(t))).size;
  // Its own name counts double: `every` whose doc comment says "a composed middleware" matches "how are middleware
  // composed", `composeRef` matches it better.
  const named = (c: Candidate): number => 2 * held(shortName(c.evidence.meta!.symbol!)) + held(c.evidence.meta?.doc ?? '');
  const callable = (c: Candidate): boolean => CALLABLE.has(c.evidence.meta?.kind ?? '');
  const most = (pool: Candidate[]): Candidate | undefined => pool.reduce<Candidate | undefined>((best, c) => (!best || named(c) > named(best) ? c : best), undefined);
  const doers = near.filter((c) => callable(c) && named(c) > 0);
  const top = near.filter((c) => rank(c) === rank(near[0]!));
  const best = most(doers.filter((c) => rank(c) === rank(doers[0]!))) ?? top.find(callable) ?? most(top);
  return best?.evidence.meta?.symbol;
}

/** Most call sites named in the opening sentence (besides the cited ones). */
const MAX_CALLERS = 8;

/** What the extractive answer says beyond the evidence: the lead symbol's call sites, from code navigation. */
async function answerFacts(env: OracleEnv, lead: string | undefined, evidence: Evidence[], signal?: AbortSignal): Promise<AnswerFacts> {
  if (!lead || !env.code.references) return lead ? { lead } : {};
  const own = evidence.find((e) => e.meta?.symbol === lead && e.meta?.defLine);
  const from = Number(own?.meta?.defLine ?? 0);
  const to = Number(own?.meta?.defEndLine ?? 0);
  try {
    // The qualified name where navigation can place it (`LinearRouter.add`), not every `add` in the project.
    const hits = await env.code.references(lead, MAX_CALLERS, signal);
    // Production callers first: a test reaching it is worth less than the code path that does.
    const callers = hits.filter((h) => !(h.path === own?.path && h.line >= from && h.line <= to))
      .sort((x, y) => callerRank(x.path) - callerRank(y.path))
      .map((h) => ({ path: h.path, line: h.focusLine ?? h.line, ...(h.symbol ? { symbol: h.symbol } : {}) }));
    return { lead, callers };
  } catch (e) {
    if (EngineError.is(e, 'cancelled') || signal?.aborted) throw e;
    env.logger.warn(`oracle: the call sites of ${lead} could not be looked up: ${e instanceof Error ? e.message : String(e)}`);
    return { lead };
  }
}

/** Source code first, then tooling, examples and benchmarks, then tests. */
function callerRank(path: string): number {
  const cls = classifyPath(path);
  return cls === 'source' ? 0 : cls === 'test' ? 2 : 1;
}

/** Keeps the ranked evidence whose citation checks out against the file on disk; counts the rest. */
async function verified(ctx: SourceContext, ranked: Ranked): Promise<{ kept: Candidate[]; dropped: number }> {
  const kept: Candidate[] = [];
  let dropped = 0;
  for (const c of ranked.kept) {
    const verdict = await verifyEvidence(ctx.files, c.evidence);
    if (verdict.ok) kept.push(c);
    else {
      dropped++;
      ranked.decisions.push({ key: c.evidence.key, before: c.evidence.score, after: 0, why: `citation dropped: ${verdict.why}` });
    }
  }
  return { kept, dropped };
}

/** Collects the stream into its result (the last event). */
export async function collectAnswer(events: AsyncIterable<AskEvent>): Promise<AskResult> {
  let result: AskResult | undefined;
  for await (const e of events) if (e.type === 'done') result = e.result;
  if (!result) throw new EngineError('internal', 'the oracle stream ended without a result');
  return result;
}

