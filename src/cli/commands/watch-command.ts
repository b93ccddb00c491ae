import { watch } from 'node:fs';
import { relative, sep } from 'node:path';
import type { Command } from './types';

/**
 * Keeps the index fresh while files change: changes are queued and committed in batches (5 files, 1,000 changed
 * lines or 5 minutes); Ctrl-C commits what is queued and exits.
 */
export const watchCommand: Command = {
  name: 'watch',
  summary: 'keep the index fresh as files change (batched commits)',
  usage: 'watch',
  flags: {},
  async run({ engine, flags, out }) {
    const first = await engine.index();
    out(flags.json ? JSON.stringify({ event: 'indexed', parsed: first.parsed, files: first.filesSeen }) : `indexed ${first.filesSeen} files; watching ${engine.root} (Ctrl-C to stop)`);
    const watcher = watch(engine.root, { recursive: true }, (_event, file) => {
      if (!file) return;
      const rel = relative(engine.root, `${engine.root}${sep}${file}`).split(sep).join('/');
      if (rel.startsWith('.git/') || rel.startsWith('.context-oracle/') || rel.includes('node_modules/')) return;
      void engine.noteChanges([{ path: rel }]).then(async () => {
        const f = await engine.freshness();
        if (flags.json) out(JSON.stringify({ event: 'queued', path: rel, queued: f.queued.length }));
      }).catch((e: unknown) => process.stderr.write(`watch: ${String(e)}\n`));
    });
    await new Promise<void>((resolve) => {
      const stop = () => { watcher.close(); resolve(); };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await engine.syncNow();
    return 0;
  },
};
