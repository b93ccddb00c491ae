/**
 * Feeds the editor's saved changes and deletions to the engine's change queue and tells the client what is queued.
 * The engine commits a batch by itself (size, changed lines, age); an age-based commit happens on the engine's own
 * timer, so while anything is queued the stamp is polled and published again when it changes.
 */
import type { ChangeNotice, Engine, FreshnessStamp, Logger } from '../core';

export interface FreshnessFeed {
  changes(raw: unknown): Promise<void>;
  /** Publish the stamp now (after Sync Now, an index run, …) if it differs from the last one sent. */
  publish(): Promise<void>;
  dispose(): void;
}

/** Only workspace-relative paths inside the workspace; the index folder itself is never a source change. */
export function validChanges(raw: unknown): ChangeNotice[] {
  const list = (raw as { changes?: unknown } | undefined)?.changes;
  if (!Array.isArray(list)) return [];
  const out: ChangeNotice[] = [];
  for (const c of list as Array<Partial<ChangeNotice>>) {
    const p = typeof c?.path === 'string' ? c.path.replace(/\\/g, '/') : '';
    if (!p || p.startsWith('/') || /^[A-Za-z]:/.test(p) || p.split('/').includes('..') || p.startsWith('.context-oracle/')) continue;
    out.push({ path: p, kind: c.kind === 'deleted' ? 'deleted' : 'changed', ...(typeof c.lines === 'number' && c.lines > 0 ? { lines: c.lines } : {}) });
  }
  return out;
}

export function createFreshnessFeed(
  engine: () => Engine | undefined, notify: (stamp: FreshnessStamp) => void, logger: Logger, pollMs = 5_000,
): FreshnessFeed {
  let last = '';
  let timer: ReturnType<typeof setTimeout> | undefined;

  async function publish(): Promise<void> {
    const eng = engine();
    if (!eng) return;
    const stamp = await eng.freshness();
    const key = JSON.stringify([stamp.queued, stamp.indexedAt, stamp.indexedHead]);
    if (key !== last) {
      last = key;
      notify(stamp);
    }
    if (timer) clearTimeout(timer);
    timer = stamp.queued.length ? setTimeout(() => { publish().catch(() => undefined); }, pollMs) : undefined;
  }

  return {
    async changes(raw) {
      const eng = engine();
      const changes = validChanges(raw);
      if (!eng || !changes.length) return;
      logger.debug(`queued ${changes.length} change(s): ${changes.map((c) => `${c.kind} ${c.path}`).join(', ')}`);
      await eng.noteChanges(changes);
      await publish();
    },
    publish,
    dispose() {
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}
