/**
 * A workspace written from a file map and indexed once into a database in memory (real tree-sitter grammars and
 * sql.js, no storage): for tests of what retrieval does with an index, without an engine around it.
 */
import { DEFAULT_CONFIG } from '../../src/core/config';
import { runIndex } from '../../src/core/index/indexer';
import { createInProcessParserHost } from '../../src/core/parse/in-process-parser-host';
import type { EngineDeps } from '../../src/core/ports';
import { IndexDatabase } from '../../src/core/store/database';
import { createNodeAssetLocator } from '../../src/node/assets';
import { nodeFileSystem } from '../../src/node/file-system';
import { ASSET_ROOT, captureLogger, makeWorkspace } from './workspace';

/**
 * `dispose` lets go of the parser (its grammars); the database stays open for the test's reads. `deps` index it again
 * (`runIndex(deps, DEFAULT_CONFIG, db, false, { onlyPaths })` after writing files under `root`).
 */
export async function indexedWorkspace(files: Record<string, string>): Promise<{ root: string; db: IndexDatabase; deps: EngineDeps; dispose(): Promise<void> }> {
  const root = makeWorkspace(files);
  const assets = createNodeAssetLocator(ASSET_ROOT);
  let clock = 1_000;
  const deps: EngineDeps = {
    root, fs: nodeFileSystem, logger: captureLogger(), clock: { now: () => clock++ }, assets, parser: createInProcessParserHost(assets),
    storage: undefined as unknown as EngineDeps['storage'],
  };
  const db = await IndexDatabase.create(assets, {});
  await runIndex(deps, DEFAULT_CONFIG, db, true);
  return { root, db, deps, dispose: () => deps.parser.dispose() };
}
