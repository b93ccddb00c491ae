/**
 * File changes wait in a queue and are committed to the index as one batch: when the queue holds enough files or
 * changed lines, or when the oldest change has waited long enough. Batching keeps the index from being rewritten
 * for every keystroke-save, and keeps a branch switch (hundreds of changes) one consistent update.
 */
export interface QueuePolicy {
  /** Commit when this many distinct files are queued. */
  maxFiles: number;
  /** Commit when this many changed lines (as reported by the host) are queued. */
  maxLines: number;
  /** Commit when the oldest queued change is this old (ms). */
  maxAgeMs: number;
}

export const DEFAULT_QUEUE_POLICY: QueuePolicy = { maxFiles: 5, maxLines: 1000, maxAgeMs: 5 * 60_000 };

export interface QueuedChange {
  path: string;
  kind: 'changed' | 'deleted';
  /** Lines changed, when the host knows (editor diffs); unknown counts as 1. */
  lines: number;
  since: number;
}

export class ChangeQueue {
  private readonly items = new Map<string, QueuedChange>();

  constructor(private readonly policy: QueuePolicy) {}

  add(path: string, kind: QueuedChange['kind'], now: number, lines = 1): void {
    const prior = this.items.get(path);
    this.items.set(path, { path, kind, lines: (prior?.lines ?? 0) + Math.max(1, lines), since: prior?.since ?? now });
  }

  get size(): number {
    return this.items.size;
  }

  list(): QueuedChange[] {
    return [...this.items.values()].sort((a, b) => a.since - b.since || a.path.localeCompare(b.path));
  }

  /** Why the queue should be committed now, or undefined. */
  due(now: number): 'files' | 'lines' | 'age' | undefined {
    if (!this.items.size) return undefined;
    if (this.items.size >= this.policy.maxFiles) return 'files';
    let lines = 0;
    let oldest = Infinity;
    for (const c of this.items.values()) {
      lines += c.lines;
      oldest = Math.min(oldest, c.since);
    }
    if (lines >= this.policy.maxLines) return 'lines';
    if (now - oldest >= this.policy.maxAgeMs) return 'age';
    return undefined;
  }

  /** Milliseconds until the age rule fires (for a host's timer), or undefined when empty. */
  msUntilDue(now: number): number | undefined {
    if (!this.items.size) return undefined;
    const oldest = Math.min(...[...this.items.values()].map((c) => c.since));
    return Math.max(0, oldest + this.policy.maxAgeMs - now);
  }

  /** Removes and returns the given paths (or everything). */
  take(paths?: Iterable<string>): QueuedChange[] {
    const keys = paths ? [...paths].filter((p) => this.items.has(p)) : [...this.items.keys()];
    const out = keys.map((k) => this.items.get(k)!);
    for (const k of keys) this.items.delete(k);
    return out;
  }
}
