// A fresh copy of the fixture workspace per run, so the index the tests write never lands in the repository.
import { cpSync, mkdtempSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureSecondFolder, fixtureWorkspace } from './paths.mjs';

/**
 * Copies the fixture into `<tmp>/workspace` and renames every `dot-gitignore` to `.gitignore` (the fixture cannot
 * hold a real .gitignore: this repository's git would then ignore the very files the tests expect to be skipped) and
 * `dot-context-oracle` to `.context-oracle` (the declared graph; the repository ignores real index folders).
 * Beside it: the second folder (`ledger`) and `multi-root.code-workspace` naming both, for the multi-root pass.
 */
export function prepareWorkspace() {
  const base = mkdtempSync(join(tmpdir(), 'context-oracle-it-'));
  const ws = join(base, 'workspace');
  const copy = (from, to) => cpSync(from, to, { recursive: true, filter: (src) => !src.split(/[\\/]/).includes('.context-oracle') });
  copy(fixtureWorkspace, ws);
  copy(fixtureSecondFolder, join(base, 'ledger'));
  const multiRoot = join(base, 'multi-root.code-workspace');
  writeFileSync(multiRoot, JSON.stringify({ folders: [{ path: 'workspace' }, { path: 'ledger' }], settings: {} }, null, 2));
  const renameAll = (dir) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) {
        renameAll(p);
        if (name === 'dot-context-oracle') renameSync(p, join(dir, '.context-oracle'));
      } else if (name === 'dot-gitignore') renameSync(p, join(dir, '.gitignore'));
    }
  };
  renameAll(ws);
  renameAll(join(base, 'ledger'));
  return { base, workspace: ws, multiRoot };
}
