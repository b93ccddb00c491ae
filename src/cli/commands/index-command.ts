import { UsageError } from '../args';
import { formatBytes, formatIndexOutcome } from '../format';
import { createProgressReporter } from '../progress';
import { readIndexFile, writeIndexFile } from '../shared-index-file';
import type { Command } from './types';

export const indexCommand: Command = {
  name: 'index',
  summary: 'index the workspace (incremental; --full rebuilds); --import FILE starts from a shared index, --export FILE writes one',
  usage: 'index [--full] [--import FILE] [--export FILE]',
  flags: { full: { type: 'boolean' }, import: { type: 'string' }, export: { type: 'string' } },
  async run({ engine, flags, out }) {
    if (flags.full && flags.import !== undefined) throw new UsageError('--full and --import exclude each other (an import catches up incrementally)');
    const progress = flags.json ? { update() {}, end() {} } : createProgressReporter();
    const onProgress = (p: Parameters<typeof progress.update>[0]) => progress.update(p);
    // --import: a shared index (built in CI, say) takes this workspace's place, then catches up with the files here.
    const outcome = flags.import !== undefined
      ? await engine.importIndex(readIndexFile(String(flags.import)), { onProgress })
      : await engine.index({ full: Boolean(flags.full), onProgress });
    progress.end();
    let exported: { path: string; bytes: number } | undefined;
    if (flags.export !== undefined) {
      const bytes = await engine.exportIndex();
      writeIndexFile(String(flags.export), bytes);
      exported = { path: String(flags.export), bytes: bytes.length };
    }
    if (flags.json) {
      out(JSON.stringify({ ...outcome, ...(flags.import !== undefined ? { imported: String(flags.import) } : {}), ...(exported ? { exported } : {}) }, null, 2));
    } else {
      const lines = [formatIndexOutcome(outcome)];
      if (flags.import !== undefined) lines.unshift(`imported ${String(flags.import)}; caught up with the files here:`);
      if (exported) lines.push(`exported the index to ${exported.path} (${formatBytes(exported.bytes)})`);
      out(lines.join('\n'));
    }
    return 0;
  },
};
