import type { AssetLocator, ParserHost } from '../ports';
import { TreeSitterService } from './tree-sitter-service';

/** Parses on the calling thread. Used by tests and as a fallback where worker threads are unavailable. */
export function createInProcessParserHost(assets: AssetLocator): ParserHost {
  const service = new TreeSitterService(assets);
  return {
    async parse(requests) {
      const out = [];
      for (const r of requests) out.push(await service.parse(r));
      return out;
    },
    async unavailable() {
      return service.unavailable();
    },
    async dispose() {},
  };
}
