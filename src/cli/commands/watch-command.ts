import { watchWorkspace } from '../../node/workspace-watcher';
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
    let failed: Error | undefined;
    let stop: (() => void) | undefined;
    const watcher = watchWorkspace(engine.root, {
      onChanges(paths) {
        void engine.noteChanges(paths.map((path) => ({ path }))).then(async () => {
          if (!flags.json) return;
          const queued = (await engine.freshness()).queued.length;
          for (const path of paths) out(JSON.stringify({ event: 'queued', path, queued }));
        }).catch((e: unknown) => process.stderr.write(`watch: ${String(e)}\n`));
      },
      onError(e) {
        failed = e;
        stop?.();
      },
    });
    await watcher.ready;
    out(flags.json ? JSON.stringify({ event: 'indexed', parsed: first.parsed, files: first.filesSeen }) : `indexed ${first.filesSeen} files; watching ${engine.root} (Ctrl-C to stop)`);
    await new Promise<void>((resolve) => {
      stop = resolve;
      if (failed) resolve();
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    watcher.flush();
    watcher.close();
    await engine.syncNow();
    if (failed) {
      process.stderr.write(`watch: stopped watching: ${failed.message}\n`);
      return 1;
    }
    return 0;
  },
};
