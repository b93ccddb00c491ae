/**
 * Freshness: the change queue, its commit rules (batch size, changed lines, age), just-in-time commits for the
 * files a question touches, and the stamp every answer carries (git HEAD when indexed, files still queued).
 */
import type { Clock } from '../ports';
import { ChangeQueue, DEFAULT_QUEUE_POLICY, type QueuePolicy, type QueuedChange } from './change-queue';

export interface FreshnessStamp {
  /** Commit checked out when the index was last updated (absent outside git). */
  indexedHead?: string;
  indexedBranch?: string;
  /** ISO time of the last index update. */
  indexedAt?: string;
  /** Workspace-relative paths changed on disk but not yet in the index. */
  queued: string[];
  /** Problems with the index found since the last answer (a damaged journal that was repaired), reported once. */
  warnings?: string[];
}

export interface ChangeNotice {
  path: string;
  kind?: 'changed' | 'deleted';
  /** Changed lines when known. */
  lines?: number;
}

export interface FreshnessController {
  note(changes: ChangeNotice[]): Promise<void>;
  /** Commits everything queued now. */
  flush(): Promise<void>;
  /** Commits the queued files the text mentions (by path or by file name stem), before answering it. */
  justInTime(text: string): Promise<void>;
  queued(): QueuedChange[];
  /** Takes paths off the queue without committing them (the index already has them as they are). */
  drop(paths: string[]): void;
  dispose(): void;
}

export function createFreshnessController(
  clock: Clock,
  commit: (paths: string[]) => Promise<unknown>,
  policy: QueuePolicy = DEFAULT_QUEUE_POLICY,
): FreshnessController {
  const queue = new ChangeQueue(policy);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<unknown> = Promise.resolve();

  function schedule(): void {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const wait = queue.msUntilDue(clock.now());
    if (wait === undefined) return;
    timer = setTimeout(() => { void commitNow(); }, wait);
    // A pending age-based commit must not keep a CLI process alive.
    (timer as { unref?: () => void }).unref?.();
  }

  function commitNow(paths?: string[]): Promise<unknown> {
    const taken = queue.take(paths);
    schedule();
    if (!taken.length) return running;
    running = running.then(() => commit(taken.map((c) => c.path)));
    return running;
  }

  return {
    async note(changes) {
      const now = clock.now();
      for (const c of changes) queue.add(c.path, c.kind ?? 'changed', now, c.lines ?? 1);
      if (queue.due(now)) await commitNow();
      else schedule();
    },
    async flush() {
      await commitNow();
    },
    async justInTime(text) {
      if (!queue.size) return;
      const lower = text.toLowerCase();
      const touched = queue.list().filter((c) => {
        const base = c.path.split('/').pop()!.toLowerCase();
        const stem = base.replace(/\.[^.]+$/, '');
        return lower.includes(c.path.toLowerCase()) || lower.includes(base) || (stem.length >= 4 && lower.includes(stem));
      });
      if (touched.length) await commitNow(touched.map((c) => c.path));
    },
    queued: () => queue.list(),
    drop(paths) {
      queue.take(paths);
      schedule();
    },
    dispose() {
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}
