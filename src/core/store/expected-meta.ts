/**
 * The meta row an index must carry for this engine to read it: schema version, engine version and a hash of the
 * grammar set. A persisted index that differs in any of them is outdated and rebuilt.
 */
import { createHash } from 'node:crypto';
import { GRAMMAR_PACKAGES, LANGUAGES } from '../parse/languages';
import type { AssetLocator } from '../ports';
import { ENGINE_VERSION } from '../version';
import { SCHEMA_VERSION } from './schema';

/** `expected()` gives the meta values; the grammar hash is computed once per engine. */
export function expectedMeta(assets: AssetLocator): () => Promise<Record<string, string>> {
  let grammarHash: string | undefined;
  async function currentGrammarHash(): Promise<string> {
    if (!grammarHash) {
      const h = createHash('sha1');
      for (const lang of LANGUAGES) {
        h.update(lang.id).update(lang.grammar);
        for (const q of lang.queries) h.update(await assets.readText(q));
        for (const r of lang.rewrites ?? []) h.update(String(r.pattern));
      }
      // The grammar packages' versions stand for the WASM files: reading megabytes of grammars on every start to
      // hash them would cost more than the no-change re-index itself.
      h.update(GRAMMAR_PACKAGES);
      grammarHash = h.digest('hex').slice(0, 16);
    }
    return grammarHash;
  }
  return async () => ({ schema_version: String(SCHEMA_VERSION), engine_version: ENGINE_VERSION, grammar_hash: await currentGrammarHash() });
}
