/**
 * Git activity of a node: commits in the last 30 and 90 days touching its files, through the Git port. hot > 20
 * commits in 30 days, warm 5–20, cold 1–4 (or none in 30 but some in 90), dormant none in 90 — beadloom's scale.
 */
import type { Git } from '../ports';

export interface Activity {
  level: 'hot' | 'warm' | 'cold' | 'dormant';
  commits_30d: number;
}

export type ActivityResult = { activity: Activity } | { unavailable: string };

const MAX_PATHS = 200;
const DAY_MS = 86_400_000;

export function activityLevel(commits30: number, commits90: number): Activity['level'] {
  if (commits30 > 20) return 'hot';
  if (commits30 >= 5) return 'warm';
  if (commits30 >= 1 || commits90 > 0) return 'cold';
  return 'dormant';
}

export async function nodeActivity(git: Git | undefined, paths: readonly string[], now: number): Promise<ActivityResult> {
  if (!git) return { unavailable: 'git is not available to this host' };
  if (!paths.length) return { unavailable: 'the node has no source files to look up in git' };
  let out: string;
  try {
    out = await git.run(['log', '--since=90.days', '--format=%x00%H%x09%aI', '--name-only', '--', ...paths.slice(0, MAX_PATHS)], { maxBytes: 8 * 1024 * 1024 });
  } catch (e) {
    return { unavailable: e instanceof Error ? e.message : String(e) };
  }
  let c30 = 0;
  let c90 = 0;
  for (const block of out.split('\0').slice(1)) {
    const date = Date.parse(block.split('\n')[0]!.split('\t')[1] ?? '');
    if (!Number.isFinite(date)) continue;
    c90++;
    if (now - date <= 30 * DAY_MS) c30++;
  }
  return { activity: { level: activityLevel(c30, c90), commits_30d: c30 } };
}
