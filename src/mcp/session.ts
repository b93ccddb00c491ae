/**
 * One MCP session's shared conversation context: every tool call and the items it returned, in order, so later
 * calls (and the oracle, which plugs its conversation memory in through `memory`) can build on earlier results.
 * Bounded: the oldest calls and items are forgotten first.
 */
import { randomUUID } from 'node:crypto';

/** Something a tool returned that a later call may refer to: a location, a symbol, a graph node. */
export interface SessionItem {
  /** Stable key: `path:line`, `path#Qualified.name`, or a graph ref_id. */
  ref: string;
  path?: string;
  line?: number;
  symbol?: string;
  kind?: string;
}

export interface SessionCall {
  seq: number;
  tool: string;
  /** Arguments as given (after validation). */
  args: Record<string, unknown>;
  /** ISO time the call finished. */
  at: string;
  ok: boolean;
  /** Error code when the call failed. */
  error?: string;
  /** Tokens of the answer sent. */
  tokens: number;
  /** Refs of the items returned, in answer order. */
  items: string[];
}

export interface RememberedItem extends SessionItem {
  /** Calls that returned it (seq numbers), oldest first. */
  seenIn: number[];
}

/**
 * Where a conversation memory (the oracle's) hears about tool results; it may summarise or compress them. Called
 * after each call, never awaited by the answer.
 */
export interface SessionMemory {
  onToolCall(call: SessionCall, items: readonly SessionItem[]): void | Promise<void>;
}

export interface SessionLimits {
  maxCalls: number;
  maxItems: number;
}

const DEFAULT_LIMITS: SessionLimits = { maxCalls: 500, maxItems: 5_000 };

export class McpSession {
  readonly startedAt = new Date().toISOString();
  /** The oracle's conversation memory, when one is plugged in. */
  memory: SessionMemory | undefined;
  private readonly calls: SessionCall[] = [];
  private readonly items = new Map<string, RememberedItem>();
  private seq = 0;

  /**
   * `id` names the session's conversation (kept in the workspace's cache folder, so a restarted server given the
   * same id goes on with it); default a new one per server.
   */
  constructor(private readonly limits: SessionLimits = DEFAULT_LIMITS, readonly id: string = randomUUID()) {}

  /** Numbers calls in arrival order (concurrent calls get distinct numbers). */
  nextSeq(): number {
    return ++this.seq;
  }

  record(call: Omit<SessionCall, 'items'>, items: readonly SessionItem[] = []): SessionCall {
    const full: SessionCall = { ...call, items: items.map((i) => i.ref) };
    this.calls.push(full);
    if (this.calls.length > this.limits.maxCalls) this.calls.splice(0, this.calls.length - this.limits.maxCalls);
    for (const item of items) {
      const prior = this.items.get(item.ref);
      // Re-inserting moves the item to the end: the map's order is least recently returned first.
      this.items.delete(item.ref);
      this.items.set(item.ref, { ...prior, ...item, seenIn: [...(prior?.seenIn ?? []), call.seq] });
    }
    while (this.items.size > this.limits.maxItems) this.items.delete(this.items.keys().next().value!);
    if (this.memory) {
      Promise.resolve()
        .then(() => this.memory?.onToolCall(full, items))
        .catch(() => undefined);
    }
    return full;
  }

  /** Calls so far, oldest first. */
  history(): readonly SessionCall[] {
    return this.calls;
  }

  /** Items returned so far, most recently returned first. */
  recentItems(max = 50): RememberedItem[] {
    return [...this.items.values()].reverse().slice(0, max);
  }

  item(ref: string): RememberedItem | undefined {
    return this.items.get(ref);
  }

  summary(): { id: string; startedAt: string; calls: number; items: number; byTool: Record<string, number> } {
    const byTool: Record<string, number> = {};
    for (const c of this.calls) byTool[c.tool] = (byTool[c.tool] ?? 0) + 1;
    return { id: this.id, startedAt: this.startedAt, calls: this.calls.length, items: this.items.size, byTool };
  }
}
