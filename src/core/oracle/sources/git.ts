/**
 * The git source, through the Git port: commit messages that match the question, and for questions about change
 * the history (`git log`) and `git blame` of the files the other sources found. Only history that touches the
 * workspace counts: a workspace inside a bigger repository sees the commits under its own folder.
 */
import { textTerms } from '../../context/terms';
import { readGitHead } from '../../freshness/git-head';
import { coverage, stem, termWeights, vocabulary } from '../lexical';
import { SourceUnavailable, type Candidate, type PathTrace, type SourceContext, type SourceOutput } from './source';

export interface Commit {
  sha: string;
  author: string;
  date: string;
  subject: string;
  body: string;
  files: string[];
}

const LOG_COMMITS = 400;
const MAX_COMMITS = 6;
const FS = '\x1f';
const RS = '\x1e';
const FORMAT = `--format=${RS}%H${FS}%an${FS}%aI${FS}%s${FS}%b${FS}`;

/** A place the other sources found that a change question is about. */
export interface ConcernedRange {
  path: string;
  line: number;
  endLine: number;
}

/** The searched history, kept between questions: valid while HEAD stays (or briefly, when HEAD cannot be read). */
export interface GitLogCache {
  key?: string;
  value?: { commits: Commit[]; vocabs: Set<string>[] } | { unavailable: string };
}

/** Without a readable HEAD (a workspace inside a bigger repository) the history is re-read after this long. */
const UNKEYED_TTL_MS = 30_000;

async function loadLog(ctx: SourceContext): Promise<{ commits: Commit[]; vocabs: Set<string>[] }> {
  const git = ctx.git;
  if (!git) throw new SourceUnavailable('git is not available to this host');
  // Reading HEAD from .git costs two small file reads; spawning git costs milliseconds of a blocked event loop.
  const head = await readGitHead(ctx.root, ctx.fs).catch(() => undefined);
  const key = head?.commit ?? `unkeyed:${Math.floor(ctx.clock.now() / UNKEYED_TTL_MS)}`;
  const cache = ctx.gitLog;
  if (cache.key !== key || !cache.value) {
    cache.key = key;
    cache.value = await readLog(ctx, git);
  }
  if ('unavailable' in cache.value) throw new SourceUnavailable(cache.value.unavailable);
  return cache.value;
}

async function readLog(ctx: SourceContext, git: NonNullable<SourceContext['git']>): Promise<NonNullable<GitLogCache['value']>> {
  const run = (args: string[]): Promise<string> => git.run(args, ctx.signal ? { signal: ctx.signal } : {});
  try {
    await run(['rev-parse', '--is-inside-work-tree']);
  } catch (e) {
    return { unavailable: `not a git repository (${e instanceof Error ? e.message : String(e)})` };
  }
  let commits: Commit[];
  try {
    commits = parseLog(await run(['log', `-n${LOG_COMMITS}`, '--no-merges', '--relative', '--name-only', FORMAT, '--', '.']));
  } catch (e) {
    // A repository without commits yet has no history to search.
    return { unavailable: `git log failed (${e instanceof Error ? e.message : String(e)})` };
  }
  if (!commits.length) return { unavailable: 'no commits touch this workspace' };
  return { commits, vocabs: commits.map((c) => vocabulary(`${c.subject}\n${c.body}\n${c.files.join(' ')}`)) };
}

export async function searchGit(ctx: SourceContext): Promise<SourceOutput> {
  const t0 = ctx.clock.now();
  const { commits: log, vocabs } = await loadLog(ctx);
  const paths: PathTrace[] = [];
  const a = ctx.analysis;
  const terms = a.subject ? [...new Set([...a.terms, ...textTerms(a.subject)])] : a.terms;
  const df: Record<string, number> = {};
  for (const v of vocabs) for (const t of terms) if (v.has(stem(t))) df[t] = (df[t] ?? 0) + 1;
  const tw = termWeights(terms, df, log.length);
  const matched = log.map((c, i) => ({ c, score: coverage(vocabs[i]!, tw) })).filter((m) => m.score > 0);
  // Newer commits break ties: the log is newest first.
  matched.sort((x, y) => y.score - x.score);
  const candidates: Candidate[] = matched.slice(0, MAX_COMMITS).map((m) => commitCandidate(m.c, 'commits', m.score / (matched[0]?.score || 1), 'commit message matches the question'));
  paths.push({ source: 'git', method: 'commits', candidates: candidates.length, ms: ctx.clock.now() - t0, note: `${log.length} commits searched` });

  return { candidates, paths, stats: { docs: log.length, df } };
}

/**
 * For questions about change: `git log` of the files the ranked evidence sits in and `git blame` of the best range.
 * Runs after ranking, so it follows the evidence that passed the relevance gate.
 */
export async function historyOf(ctx: SourceContext, ranges: ConcernedRange[]): Promise<{ candidates: Candidate[]; paths: PathTrace[] }> {
  const candidates: Candidate[] = [];
  const paths: PathTrace[] = [];
  if (!ctx.git || !ranges.length) return { candidates, paths };
  const run = (args: string[]): Promise<string> => ctx.git!.run(args, ctx.signal ? { signal: ctx.signal } : {}).catch(() => '');
  let t0 = ctx.clock.now();
  const files = [...new Set(ranges.map((r) => r.path))].slice(0, 3);
  let history = 0;
  for (const [i, file] of files.entries()) {
    const commits = parseLog(await run(['log', '-n5', '--no-merges', '--relative', '--name-only', FORMAT, '--', file]));
    commits.forEach((c, k) => {
      history++;
      candidates.push(commitCandidate(c, 'file-history', (1 - i * 0.2) * (1 - k * 0.15), `changed ${file} (git log of a file the question is about)`, true));
    });
  }
  paths.push({ source: 'git', method: 'file-history', candidates: history, ms: ctx.clock.now() - t0, note: files.join(', ') });
  const first = ranges[0]!;
  t0 = ctx.clock.now();
  const blamed = await blameRange(ctx, first.path, first.line, first.endLine);
  candidates.push(...blamed);
  paths.push({ source: 'git', method: 'blame', candidates: blamed.length, ms: ctx.clock.now() - t0, note: `${first.path}:${first.line}-${first.endLine}` });
  return { candidates, paths };
}

/** Blame of a cited range: the commits that last touched those lines, newest first. */
async function blameRange(ctx: SourceContext, file: string, line: number, endLine: number): Promise<Candidate[]> {
  if (!ctx.git) return [];
  const out = await ctx.git.run(['blame', '--porcelain', `-L${line},${endLine}`, '--', file], ctx.signal ? { signal: ctx.signal } : {}).catch(() => '');
  const byCommit = new Map<string, { author: string; time: number; subject: string; lines: number }>();
  let current: string | undefined;
  for (const row of out.split('\n')) {
    const head = /^([0-9a-f]{40}) \d+ \d+/.exec(row);
    if (head) {
      current = head[1]!;
      const got = byCommit.get(current) ?? { author: '', time: 0, subject: '', lines: 0 };
      got.lines++;
      byCommit.set(current, got);
      continue;
    }
    const got = current ? byCommit.get(current) : undefined;
    if (!got) continue;
    if (row.startsWith('author ')) got.author = row.slice(7);
    else if (row.startsWith('author-time ')) got.time = Number(row.slice(12));
    else if (row.startsWith('summary ')) got.subject = row.slice(8);
  }
  return [...byCommit.entries()]
    .filter(([sha]) => !/^0+$/.test(sha))
    .sort((x, y) => y[1].time - x[1].time)
    .slice(0, 2)
    .map(([sha, b], i) => commitCandidate(
      { sha, author: b.author, date: new Date(b.time * 1000).toISOString(), subject: b.subject, body: '', files: [file] },
      'blame', 1 - i * 0.2, `last changed ${b.lines} of lines ${line}-${endLine} of ${file} (git blame)`, true,
    ));
}

function commitCandidate(c: Commit, method: 'commits' | 'file-history' | 'blame', pathScore: number, reason: string, exact = false): Candidate {
  const short = c.sha.slice(0, 7);
  const body = c.body.split('\n').map((l) => l.trimEnd()).filter(Boolean).slice(0, 8).join('\n');
  const files = c.files.slice(0, 8).join(', ') + (c.files.length > 8 ? `, … (${c.files.length} files)` : '');
  return {
    evidence: {
      key: `commit:${c.sha}`,
      source: 'git',
      method,
      commit: c.sha,
      title: c.subject,
      text: [`commit ${short} · ${c.author} · ${c.date.slice(0, 10)}`, c.subject, ...(body ? ['', body] : []), ...(files ? ['', `files: ${files}`] : [])].join('\n'),
      relevance: 0,
      score: 0,
      reason,
      meta: { quote: c.subject, author: c.author, date: c.date },
    },
    scope: `${c.subject}\n${c.body}\n${c.files.join(' ')}`,
    pathScore,
    ...(exact ? { exact } : {}),
  };
}

export function parseLog(out: string): Commit[] {
  const commits: Commit[] = [];
  for (const record of out.split(RS)) {
    if (!record.trim()) continue;
    const [sha, author, date, subject, body, rest] = record.split(FS);
    if (!sha || !/^[0-9a-f]{40}$/.test(sha.trim())) continue;
    commits.push({
      sha: sha.trim(), author: author ?? '', date: date ?? '', subject: subject ?? '', body: (body ?? '').trim(),
      files: (rest ?? '').split('\n').map((l) => l.trim()).filter(Boolean),
    });
  }
  return commits;
}
