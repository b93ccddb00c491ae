// Where VS Code can be downloaded (a developer's machine): @vscode/test-electron's runTests, the standard launcher.
import { runTests } from '@vscode/test-electron';
import { lmProviderPath } from './paths.mjs';

/** @returns {Promise<number>} the exit code of the VS Code test run */
export async function runWithElectron({ devPath, testsPath, workspace, userDataDir, extensionsDir }) {
  try {
    return await runTests({
      extensionDevelopmentPath: [devPath, lmProviderPath], // the second: the suite's stand-in for a Copilot model
      extensionTestsPath: testsPath,
      launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes',
        `--user-data-dir=${userDataDir}`, `--extensions-dir=${extensionsDir}`],
      extensionTestsEnv: { CONTEXT_ORACLE_IT: '1' },
    });
  } catch (e) {
    // runTests rejects when VS Code exits non-zero (failing tests) or cannot be downloaded or started.
    console.error(e instanceof Error ? e.message : e);
    return 1;
  }
}
