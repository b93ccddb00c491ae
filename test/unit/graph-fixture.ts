/**
 * Copies a graph fixture into a temporary workspace. Folders named `dot-X` are copied as `.X`: the repository's
 * .gitignore ignores `.context-oracle/` everywhere, so the native-format fixture keeps its graph under
 * `dot-context-oracle/` in git and becomes `.context-oracle/` only in the copy.
 */
import { cpSync, readdirSync, renameSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { makeWorkspace } from '../helpers/workspace';

export const FIXTURES = resolve('test/fixtures');

export function copyFixture(name: 'graph-project' | 'beadloom-project'): string {
  const root = makeWorkspace({});
  cpSync(join(FIXTURES, name), root, { recursive: true });
  const rename = (dir: string): void => {
    for (const entry of readdirSync(dir)) {
      const p = join(dir, entry);
      if (!statSync(p).isDirectory()) continue;
      if (entry.startsWith('dot-')) {
        const target = join(dir, `.${entry.slice(4)}`);
        renameSync(p, target);
        rename(target);
      } else rename(p);
    }
  };
  rename(root);
  return root;
}
