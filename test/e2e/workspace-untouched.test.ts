/**
 * Issue 18: nothing is written into the workspace by default (the index, caches, conversations and session logs live
 * in the user's cache folder, here the test's temporary XDG_CACHE_HOME), an old in-workspace index is moved there
 * once, and conversations survive CLI processes and MCP server restarts.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { AskResult } from '../../src/core/oracle/types';
import type { IndexStatus } from '../../src/core/model';
import { runCli, runCliJson } from '../helpers/cli';
import { makeOracleWorkspace } from '../helpers/oracle-workspace';
import { cacheDirOf, indexPathOf, removeWorkspace } from '../helpers/workspace';
import { call, serve } from './mcp-harness';

const roots: string[] = [];
after(() => roots.forEach(removeWorkspace));

function git(root: string, args: string[]): string {
  return execFileSync('git', args, {
    cwd: root, encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.com', GIT_CONFIG_NOSYSTEM: '1', HOME: root },
  });
}

/** The oracle fixture (code, docs, a committed thread of notes) as a git repository with everything committed. */
function committedWorkspace(): string {
  const root = makeOracleWorkspace({ git: false });
  roots.push(root);
  // The fixture's .gitignore would hide an index written into the workspace: without it, anything written shows.
  rmSync(join(root, '.gitignore'));
  git(root, ['init', '-q', '-b', 'main']);
  git(root, ['add', '-A']);
  git(root, ['commit', '-q', '-m', 'fixture']);
  return root;
}

describe('the workspace stays as committed', () => {
  it('index, ask ×3, search and an MCP session leave git status empty', async () => {
    const root = committedWorkspace();
    assert.equal(runCli(['index', '--root', root]).code, 0);
    for (let i = 0; i < 3; i++) {
      const r = runCliJson<AskResult>(['ask', 'Why is the retry backoff capped at 30 seconds?', '--root', root, '--session', 'clean']);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(r.json.loggedTo?.startsWith(cacheDirOf(root)), `logged to the cache folder: ${r.json.loggedTo}`);
      // Its own output is never evidence: the third answer cites no session log.
      assert.ok(!r.json.citations.some((c) => /oracle-session/.test(`${c.path ?? ''} ${c.thread ?? ''}`)), r.json.citations.map((c) => c.label).join('\n'));
    }
    assert.equal(runCli(['search', 'backoff', '--root', root]).code, 0);
    const served = await serve(root);
    try {
      assert.equal((await call(served.client, 'search_code', { query: 'backoff' })).isError, false);
      assert.equal((await call(served.client, 'ask_oracle', { question: 'Where is backoffDelay defined?' })).isError, false);
    } finally {
      await served.close();
    }
    assert.equal(git(root, ['status', '--porcelain', '--untracked-files=all', '--ignored']), '');
    assert.ok(existsSync(indexPathOf(root)), 'the index is in the cache folder');
    assert.ok(readdirSync(join(cacheDirOf(root), 'threads')).some((f) => /^oracle-session-/.test(f)), 'session logs in the cache folder');
  });

  it('moves an index left in <root>/.context-oracle/ by older versions, once, saying so in one line', () => {
    const root = committedWorkspace();
    assert.equal(runCli(['index', '--root', root, '--db', join(root, '.context-oracle', 'index.db')]).code, 0);
    const moved = runCliJson<IndexStatus>(['status', '--root', root]);
    assert.equal(moved.code, 0, moved.stderr);
    assert.equal(moved.json.exists, true);
    assert.ok(moved.json.files > 0);
    assert.equal(moved.json.indexPath, indexPathOf(root));
    assert.equal(moved.stderr.trim().split('\n').length, 1, moved.stderr);
    assert.match(moved.stderr, /moved the index from .*\.context-oracle to /);
    assert.ok(!existsSync(join(root, '.context-oracle', 'index.db')) && !existsSync(join(root, '.context-oracle', 'index.db.journal')));
    const again = runCliJson<IndexStatus>(['status', '--root', root]);
    assert.equal(again.stderr, '', 'moved once');
    assert.equal(again.json.files, moved.json.files);
    assert.equal(git(root, ['status', '--porcelain', '--untracked-files=all']), '');
  });
});

describe('conversations survive processes', () => {
  it('a second CLI ask with the same --session sees the first exchange', () => {
    const root = committedWorkspace();
    const first = runCliJson<AskResult>(['ask', 'Where is backoffDelay defined?', '--root', root, '--session', 's1', '--no-log']);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.json.analysis.subject, 'backoffDelay');
    const second = runCliJson<AskResult>(['ask', 'Where is it used?', '--root', root, '--session', 's1', '--no-log']);
    assert.equal(second.code, 0, second.stderr);
    assert.equal(second.json.analysis.subject, 'backoffDelay', 'the follow-up knows what "it" is');
    assert.equal(second.json.analysis.subjectFromConversation, true);
    assert.ok(second.json.citations.some((c) => c.path === 'src/delivery.ts'), second.json.citations.map((c) => c.label).join('\n'));
    // Another session does not.
    const other = runCliJson<AskResult>(['ask', 'Where is it used?', '--root', root, '--session', 's2', '--no-log']);
    assert.equal(other.json.analysis.subject, undefined);
  });

  it('an MCP server restarted on the workspace keeps the session\'s conversation', async () => {
    const root = committedWorkspace();
    const before = await serve(root);
    try {
      const def = await call(before.client, 'find_definition', { symbol: 'backoffDelay' });
      assert.equal(def.isError, false, def.texts.join('\n'));
    } finally {
      await before.close();
    }
    const restarted = await serve(root);
    try {
      const r = await call<{ no_context?: boolean; citations: Array<{ label: string }> }>(restarted.client, 'ask_oracle', { question: 'Where is it used?' });
      assert.equal(r.isError, false, r.texts.join('\n'));
      assert.notEqual(r.json.no_context, true, r.texts.join('\n'));
      assert.ok(r.json.citations.some((c) => c.label.startsWith('src/delivery.ts')), r.texts.join('\n'));
    } finally {
      await restarted.close();
    }
  });
});
