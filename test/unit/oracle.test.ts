/**
 * The oracle on the fixture workspace (code, docs, a thread, git history made at run time), extractive mode: the
 * right places cited for each kind of question, honest "nothing found", a missing source skipped and named, every
 * citation checked against the files, the session log written with its author.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Engine } from '../../src/core/engine';
import type { AskEvent, AskResult, Citation } from '../../src/core/oracle/types';
import { makeOracleWorkspace } from '../helpers/oracle-workspace';
import { cacheDirOf, removeWorkspace, testEngine } from '../helpers/workspace';
import { sessionLogPath } from '../../src/core/oracle/session-log';

const sessionLogFile = (): string => sessionLogPath(Date.now());

let root: string;
let engine: Engine;

before(async () => {
  root = makeOracleWorkspace();
  engine = testEngine(root);
  await engine.index();
});
after(async () => {
  await engine.dispose();
  removeWorkspace(root);
});

const ask = (q: string, extra = {}): Promise<AskResult> => engine.askAll(q, { model: null, ...extra });

function fileLines(path: string): string[] {
  return readFileSync(join(root, path), 'utf8').split(/\r?\n/);
}

/** Every file citation names lines that exist and hold the quoted text. */
function assertCitationsHold(citations: Citation[]): void {
  for (const c of citations) {
    if (c.kind === 'commit') {
      assert.match(c.commit!, /^[0-9a-f]{40}$/);
      continue;
    }
    const lines = fileLines(c.path!);
    assert.ok(c.line! >= 1 && c.endLine! >= c.line! && c.endLine! <= lines.length, `${c.label} is inside ${c.path} (${lines.length} lines)`);
    assert.ok(c.quote.length > 0, `${c.label} quotes something`);
    assert.ok(lines.slice(c.line! - 1, c.endLine!).some((l) => l.includes(c.quote)), `${c.label} holds "${c.quote}"`);
  }
}

const labelsOf = (r: AskResult): string[] => r.citations.map((c) => c.label);

describe('oracle, extractive answers on the fixture workspace', () => {
  it('answers a definition question with the definition first', async () => {
    const r = await ask('Where is createGreeter defined?');
    assert.equal(r.analysis.kind, 'definition');
    assert.equal(r.analysis.subject, 'createGreeter');
    assert.equal(r.mode, 'extractive');
    assert.equal(r.noContext, false);
    const first = r.citations[0]!;
    assert.equal(first.path, 'src/greeter.ts');
    assert.equal(first.line, 12, 'the line of `export function createGreeter`');
    assert.match(first.quote, /export function createGreeter/);
    assert.match(r.answer, /`createGreeter` is defined at `src\/greeter\.ts:12-\d+` \[1\]/);
    assertCitationsHold(r.citations);
  });

  it('answers a reference question with the call sites', async () => {
    const r = await ask('Where is createGreeter used?');
    assert.equal(r.analysis.kind, 'references');
    const refs = r.evidence.filter((e) => e.method === 'references');
    const places = refs.map((e) => `${e.path}:${e.meta?.quote}`);
    assert.ok(places.some((p) => p.startsWith('src/server.ts:') && p.includes('createGreeter({ excited: true })')), places.join('\n'));
    assert.ok(places.some((p) => p.startsWith('src/server.ts:') && p.includes("createGreeter({ salutation: 'Hi' })")), places.join('\n'));
    assert.ok(places.some((p) => p.startsWith('test/greeter.test.ts:')), 'the test that calls it');
    assert.match(r.answer, /`createGreeter` is used in \d+ places across \d+ files/);
    assertCitationsHold(r.citations);
  });

  it('answers a conceptual question from docs and code', async () => {
    const r = await ask('How are failed deliveries retried?');
    assert.equal(r.analysis.kind, 'conceptual');
    const labels = labelsOf(r);
    assert.ok(r.citations.some((c) => c.path === 'docs/delivery.md' && /retried up to five times/.test(c.quote + r.evidence[c.n - 1]!.text)), labels.join('\n'));
    assert.ok(r.citations.some((c) => c.path === 'src/delivery.ts'), labels.join('\n'));
    // Issue 18: code leads a code question and the docs follow it, grouped under their own heading.
    assert.equal(r.citations[0]!.path, 'src/delivery.ts', labels.join('\n'));
    assert.match(r.answer, /\nDocs:\n/);
    assertCitationsHold(r.citations);
  });

  it('answers a history question with the commit that made the change', async () => {
    const r = await ask('Why was the retry backoff capped?');
    assert.equal(r.analysis.kind, 'change');
    const commit = r.citations.find((c) => c.kind === 'commit');
    assert.ok(commit, labelsOf(r).join('\n'));
    assert.equal(commit.title, 'Cap retry backoff at 30 seconds');
    assert.equal(r.citations[0]!.kind, 'commit', 'history leads for a change question');
    assert.match(r.answer, /"Cap retry backoff at 30 seconds" by Bob on 2025-01-10/);
    // The thread that recorded the decision is cited too.
    assert.ok(r.citations.some((c) => c.kind === 'thread' && c.thread === 'decisions'), labelsOf(r).join('\n'));
    assertCitationsHold(r.citations);
  });

  it('says "no relevant project context found" when nothing is relevant', async () => {
    const r = await ask('What is the meaning of life?');
    assert.equal(r.noContext, true);
    assert.equal(r.mode, 'none');
    assert.match(r.answer, /no relevant project context found/i);
    assert.deepEqual(r.citations, []);
    assert.ok(r.sources.every((s) => s.status === 'ok'), 'every source was searched');
  });

  it('streams phases, per-source reports, evidence before the answer, and a final result', async () => {
    const events: AskEvent[] = [];
    for await (const e of engine.ask('Where is formatGreeting defined?', { model: null })) events.push(e);
    const types = events.map((e) => e.type);
    assert.equal(types[0], 'phase');
    assert.equal(types.filter((t) => t === 'source').length, 4, 'one report per source');
    const firstEvidence = types.indexOf('evidence');
    assert.ok(firstEvidence > 0 && firstEvidence < types.indexOf('answer'), 'evidence streams before the answer');
    assert.equal(types[types.length - 1], 'done');
    // Plain data: the stream survives JSON.
    assert.deepEqual(JSON.parse(JSON.stringify(events)), events);
    const done = events[events.length - 1] as Extract<AskEvent, { type: 'done' }>;
    assert.ok(done.result.stats.firstEvidenceMs !== undefined && done.result.stats.firstEvidenceMs <= done.result.stats.totalMs);
  });

  it('restricts sources and rejects unknown ones', async () => {
    const r = await ask('How are failed deliveries retried?', { sources: ['docs'] });
    assert.ok(r.citations.length > 0 && r.citations.every((c) => c.kind === 'doc'));
    assert.deepEqual(r.sources.filter((s) => s.status === 'skipped').map((s) => s.source), ['code', 'git', 'threads']);
    await assert.rejects(ask('anything', { sources: ['wiki'] }), (e: Error & { code?: string }) => e.code === 'invalid_input');
    await assert.rejects(ask('   '), (e: Error & { code?: string }) => e.code === 'required');
  });

  it('searches the docs folders the settings name, overridable per call', async () => {
    const settings = join(root, '.context-oracle/oracle.json');
    writeFileSync(settings, JSON.stringify({ docsFolders: ['notes'] }));
    try {
      const r = await ask('How are failed deliveries retried?', { sources: ['docs'], log: false });
      assert.equal(r.sources[1]!.status, 'unavailable');
      assert.match(r.sources[1]!.reason!, /no markdown files in notes/);
      const override = await ask('How are failed deliveries retried?', { sources: ['docs'], docsFolders: ['docs'], log: false });
      assert.ok(override.citations.every((c) => c.path!.startsWith('docs/')) && override.citations.length > 0);
      writeFileSync(settings, '{ not json');
      await assert.rejects(ask('anything'), (e: Error & { code?: string }) => e.code === 'invalid_input' && /oracle\.json/.test(e.message));
    } finally {
      rmSync(settings);
    }
  });

  it('appends each exchange to the day\'s session log, in the cache folder, with its author', async () => {
    const r = await ask('Where is backoffDelay defined?', { author: 'agent-7' });
    assert.equal(r.loggedTo, join(cacheDirOf(root), 'threads', basename(r.loggedTo!)));
    assert.match(basename(r.loggedTo!), /^oracle-session-\d{4}-\d{2}-\d{2}\.md$/);
    assert.ok(!existsSync(join(root, '.context-oracle', 'threads', basename(r.loggedTo!))), 'nothing is written into the workspace');
    const log = readFileSync(r.loggedTo!, 'utf8');
    assert.match(log, /^# Oracle session \d{4}-\d{2}-\d{2}/);
    assert.match(log, /## \S+ · agent-7 · Where is backoffDelay defined\?/);
    assert.match(log, /\*\*Question:\*\* Where is backoffDelay defined\?/);
    assert.ok(log.includes(r.answer.trim()), 'the answer is logged');
    const none = await ask('What is the meaning of life?', { author: 'user' });
    assert.match(readFileSync(none.loggedTo!, 'utf8'), /· user · What is the meaning of life\?[\s\S]*<!-- oracle: no relevant project context -->/);
    assert.equal((await ask('What is the meaning of life?')).noContext, true);
  });

  it('never cites its own earlier answers, unless asked about past sessions (logs committed to the workspace)', async () => {
    const committed = testEngine(root, { sessionLogs: 'workspace' });
    try {
      const q = 'Why is the retry backoff capped at 30 seconds?';
      const asks: AskResult[] = [];
      for (let i = 0; i < 3; i++) asks.push(await committed.askAll(q, { model: null }));
      assert.match(asks[0]!.loggedTo!, /^\.context-oracle\/threads\/oracle-session-\d{4}-\d{2}-\d{2}\.md$/);
      const third = asks[2]!;
      const labels = third.citations.map((c) => c.label).join('\n');
      assert.ok(!third.citations.some((c) => /oracle-session/.test(c.path ?? '') || /^oracle-session/.test(c.thread ?? '')), labels);
      // Notes people write and commit in the threads folder are still evidence.
      assert.ok(third.citations.some((c) => c.kind === 'thread' && c.thread === 'decisions'), labels);
      assert.deepEqual(third.citations.map((c) => c.label), asks[0]!.citations.map((c) => c.label), 'the same question, the same evidence');
      // Asked about past sessions, the logs are evidence.
      const past = await committed.askAll('What did the earlier session answer about the retry backoff cap?', { model: null, sources: ['threads'], log: false });
      assert.ok(past.citations.some((c) => c.kind === 'thread' && /^oracle-session-\d{4}-\d{2}-\d{2}$/.test(c.thread!)), past.citations.map((c) => c.label).join('\n'));
      const explicit = await committed.askAll(q, { model: null, sources: ['threads'], log: false, pastSessions: true });
      assert.ok(explicit.citations.some((c) => /^oracle-session/.test(c.thread ?? '')), explicit.citations.map((c) => c.label).join('\n'));
    } finally {
      await committed.dispose();
      rmSync(join(root, '.context-oracle', 'threads', basename(sessionLogFile())), { force: true });
    }
  });

  it('explains retrieval paths, scores, rerank decisions, the budget and index freshness', async () => {
    const r = await ask('How are failed deliveries retried?', { explain: true, maxTokens: 400 });
    const x = r.explain!;
    assert.ok(x.paths.some((p) => p.source === 'code') && x.paths.some((p) => p.source === 'docs'));
    assert.ok(x.candidates.length >= r.evidence.length && x.candidates.every((c) => c.relevance >= 0 && c.relevance <= 1));
    assert.ok(x.rerank.length > 0);
    assert.ok(x.budgetCut.length > 0, 'a 400-token budget cuts evidence');
    assert.ok(r.stats.contextTokens <= 400, `context ${r.stats.contextTokens} tokens within the budget`);
    assert.equal(x.index.exists, true);
    assert.deepEqual(x.index.staleFiles, []);
    // The engine hands the oracle every capability: each line names the real one, not the fallback.
    assert.deepEqual(x.wiring.filter((w) => /^(code search|definitions|references|repo map slice):/.test(w)), [
      'code search: smart context (getContextForQuestion)', 'definitions: code navigation (definitions)',
      'references: code navigation (references)', 'repo map slice: repo map (slice)',
    ]);
    // The smallest budget still cites the best evidence, narrowed to the line it quotes.
    const tiny = await ask('How are failed deliveries retried?', { maxTokens: 200, log: false });
    assert.ok(tiny.citations.length >= 1 && tiny.stats.contextTokens <= 200, `${tiny.stats.contextTokens} tokens`);
    assertCitationsHold(tiny.citations);
  });
});

describe('oracle history cache', () => {
  it('keeps the searched history while HEAD stays and reads it again when HEAD moves', async () => {
    const before = await ask('When was the salutation option renamed?', { sources: ['git'], log: false });
    assert.ok(!before.citations.some((c) => c.title === 'Rename the salutation option'));
    writeFileSync(join(root, 'docs/architecture.md'), `${readFileSync(join(root, 'docs/architecture.md'), 'utf8')}\nSalutations are options.\n`);
    execFileSync('git', ['-c', 'user.name=Dana', '-c', 'user.email=dana@example.com', 'commit', '-q', '-am', 'Rename the salutation option'], { cwd: root });
    const after = await ask('When was the salutation option renamed?', { sources: ['git'], log: false });
    assert.equal(after.citations[0]?.title, 'Rename the salutation option');
  });
});

describe('oracle for other hosts', () => {
  it('cancels through an AbortSignal, before and during the stream', async () => {
    const early = new AbortController();
    early.abort();
    await assert.rejects(ask('Where is createGreeter defined?', { signal: early.signal }), (e: Error & { code?: string }) => e.code === 'cancelled');
    const late = new AbortController();
    const seen: string[] = [];
    await assert.rejects((async () => {
      for await (const e of engine.ask('Where is createGreeter defined?', { model: null, signal: late.signal, log: false })) {
        seen.push(e.type);
        if (e.type === 'analysis') late.abort();
      }
    })(), (e: Error & { code?: string }) => e.code === 'cancelled');
    assert.ok(!seen.includes('done') && !seen.includes('answer'));
  });

  it('hands hosts with their own model (VS Code) the synthesis prompt, repo map slice included', async () => {
    const r = await ask('Where is createGreeter defined?', { includePrompt: true, log: false });
    assert.equal(r.mode, 'extractive');
    const user = r.prompt!.at(-1)!;
    assert.equal(user.role, 'user');
    assert.match(user.content, /\[1\] src\/greeter\.ts:12-\d+ — defines function `createGreeter`: Builds a greeter/);
    assert.match(user.content, /Repository map \(where the evidence sits in the codebase\):\n[\s\S]*src\/greeter\.ts/);
    assert.equal(r.prompt![0]!.role, 'system');
  });
});

describe('oracle with a source missing', () => {
  it('skips git when the workspace is not a repository, names it without git\'s error text, and answers from the rest', async () => {
    const bare = makeOracleWorkspace({ git: false });
    const e = testEngine(bare);
    try {
      await e.index();
      const r = await e.askAll('Why was the retry backoff capped?', { model: null, log: false });
      const git = r.sources.find((s) => s.source === 'git')!;
      assert.equal(git.status, 'unavailable');
      assert.match(git.reason!, /not a git repository/);
      // The answer names the source; why it could not run (git's own error text) stays a diagnostic.
      assert.match(r.answer, /git unavailable\b/);
      assert.doesNotMatch(r.answer, /not a git repository|rev-parse|fatal/);
      assert.equal(r.noContext, false);
      assert.ok(r.citations.some((c) => c.kind === 'thread' || c.kind === 'doc' || c.kind === 'code'));
      assert.ok(r.citations.every((c) => c.kind !== 'commit'));
    } finally {
      await e.dispose();
      removeWorkspace(bare);
    }
  });

  it('answers from docs and threads when there is no index yet', async () => {
    const fresh = makeOracleWorkspace({ git: false });
    const e = testEngine(fresh);
    try {
      const r = await e.askAll('How are failed deliveries retried?', { model: null, log: false });
      const code = r.sources.find((s) => s.source === 'code')!;
      assert.equal(code.status, 'unavailable');
      assert.match(code.reason!, /run `context-oracle index`/);
      assert.ok(r.citations.some((c) => c.path === 'docs/delivery.md'));
    } finally {
      await e.dispose();
      removeWorkspace(fresh);
    }
  });
});
