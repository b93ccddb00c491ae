/**
 * The oracle's fixture workspace (test/fixtures/oracle) copied to a temporary folder, optionally made a git
 * repository with a short history at run time: the delivery code first without, then with the backoff cap.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ORACLE_FIXTURE = resolve('test/fixtures/oracle');

export interface OracleWorkspaceOptions {
  /** Make a git repository with history (default true). */
  git?: boolean;
}

function git(root: string, args: string[], author: string, date: string): void {
  execFileSync('git', args, {
    cwd: root,
    stdio: 'pipe',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: author, GIT_AUTHOR_EMAIL: `${author.toLowerCase()}@example.com`, GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_NAME: author, GIT_COMMITTER_EMAIL: `${author.toLowerCase()}@example.com`, GIT_COMMITTER_DATE: date,
      GIT_CONFIG_NOSYSTEM: '1', HOME: root,
    },
  });
}

export function makeOracleWorkspace(options: OracleWorkspaceOptions = {}): string {
  const root = mkdtempSync(join(tmpdir(), 'co-oracle-'));
  cpSync(ORACLE_FIXTURE, root, { recursive: true });
  // `.context-oracle/` is gitignored in this repository, so the fixture keeps its threads under another name.
  renameSync(join(root, 'dot-context-oracle'), join(root, '.context-oracle'));
  writeFileSync(join(root, '.gitignore'), '.context-oracle/index.db\n');
  if (options.git === false) return root;
  const delivery = join(root, 'src/delivery.ts');
  const final = readFileSync(delivery, 'utf8');
  // History: delivery first without the cap, then the commit that capped the backoff.
  writeFileSync(delivery, final
    .replace('export const MAX_BACKOFF_MS = 30_000;\n', '')
    .replace('doubles each time, capped at MAX_BACKOFF_MS.', 'doubles each time.')
    .replace('return Math.min(250 * 2 ** (attempt - 1), MAX_BACKOFF_MS);', 'return 250 * 2 ** (attempt - 1);'));
  git(root, ['init', '-q', '-b', 'main'], 'Alice', '2025-01-05T10:00:00Z');
  git(root, ['add', '-A'], 'Alice', '2025-01-05T10:00:00Z');
  git(root, ['commit', '-q', '-m', 'Add message delivery and the welcome greeter'], 'Alice', '2025-01-05T10:00:00Z');
  writeFileSync(delivery, final);
  git(root, ['commit', '-q', '-am', 'Cap retry backoff at 30 seconds\n\nThe gateway rate limiter resets every 30 s; longer waits only delay welcome messages.'], 'Bob', '2025-01-10T09:30:00Z');
  writeFileSync(join(root, 'docs/architecture.md'), `${readFileSync(join(root, 'docs/architecture.md'), 'utf8')}\n## Reports\n\nA weekly report counts failed deliveries per recipient.\n`);
  git(root, ['commit', '-q', '-am', 'Document the weekly delivery report'], 'Carol', '2025-01-12T16:00:00Z');
  return root;
}
