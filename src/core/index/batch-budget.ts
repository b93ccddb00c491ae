/**
 * How many files the indexer hands the parser host at a time, and how many such batches it keeps in flight, under
 * a memory limit. A batch in flight holds its texts, their parse results and their rows; the rest of a run's memory
 * (the page cache, the workers' runtimes) is fixed. So near the limit the indexer slows down instead of failing:
 * batches halve (down to one file) and only one is in flight; with room again they grow back.
 */
import type { MemoryProbe } from '../ports';
import type { Candidate } from './walker';

/**
 * Batches in flight when memory allows: one being written on this thread while the parse workers work through the
 * next two, so a worker that finishes its share early has its share of the next batch queued (with two in flight,
 * the main thread idled 2.9 of 5.8 s on a 390-file repository waiting for the slower worker).
 */
const DEPTH = 3;
/**
 * A run of more than DEPTH full batches ends on smaller ones (a third of what is left, down to this many files): the
 * last batch is written after every parse is done, alone on the critical path, and the workers' last shares, cut
 * small, end closer together (hono, 390 files: the last write of 48 files took 0.1-0.2 s after the last parse).
 */
const TAIL_FILES = 4;
/** Above this share of the limit batches shrink; below LOW they grow back. */
const HIGH = 0.75;
const LOW = 0.5;

export class BatchBudget {
  private size: number;
  private pressed = false;
  /** The smallest batch handed out (for the report: it shows whether the limit was reached). */
  smallest = Infinity;
  /** Times memory was found above the limit's high mark. */
  shrinks = 0;
  /** The most resident memory seen by check() or sample(), in bytes (0 without a limit). */
  peak = 0;

  constructor(
    private readonly maxFiles: number,
    private readonly limitMb: number,
    private readonly memory: MemoryProbe | undefined,
  ) {
    this.size = Math.max(1, maxFiles);
  }

  private get limitBytes(): number {
    return this.memory && this.limitMb > 0 ? this.limitMb * 1024 * 1024 : Infinity;
  }

  /** Whether a limit is set and memory can be read, so it is checked. */
  get limited(): boolean {
    return this.limitBytes !== Infinity;
  }

  /** Reads resident memory (recording the peak); 0 when no limit is checked. */
  sample(): number {
    if (!this.limited) return 0;
    const resident = this.memory!.residentBytes();
    this.peak = Math.max(this.peak, resident);
    return resident;
  }

  /** Checks memory and adjusts; call before taking each batch. */
  private check(): void {
    const limit = this.limitBytes;
    if (limit === Infinity) return;
    const resident = this.sample();
    if (resident > limit * HIGH) {
      this.pressed = true;
      this.shrinks++;
      this.size = Math.max(1, Math.floor(this.size / 2));
    } else if (resident < limit * LOW) {
      this.pressed = false;
      this.size = Math.min(this.maxFiles, this.size * 2);
    }
  }

  /** Batches to keep in flight now. */
  depth(): number {
    return this.pressed ? 1 : DEPTH;
  }

  /**
   * How many of `files` from `from` on make the next batch: at most the current size (less at the end of a long
   * run), and (with a limit) at most a sixteenth of the limit in bytes, but always at least one file.
   */
  take(files: readonly Candidate[], from: number): number {
    this.check();
    const byteCap = this.limitBytes / 16;
    const left = files.length - from;
    const cap = files.length > DEPTH * this.maxFiles ? Math.min(this.size, Math.max(TAIL_FILES, Math.ceil(left / DEPTH))) : this.size;
    let n = 0;
    let bytes = 0;
    while (from + n < files.length && n < cap) {
      bytes += files[from + n]!.size;
      if (n > 0 && bytes > byteCap) break;
      n++;
    }
    if (n > 0) this.smallest = Math.min(this.smallest, n);
    return n;
  }
}
