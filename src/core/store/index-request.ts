/**
 * One request's view of the index. A request (a question, a symbol lookup, a repo map) checks freshness once —
 * the queued files its text mentions are committed just in time — and then reads the index once; every capability
 * the request reaches (the oracle's smart context, navigation and repo map) is handed that same database instead
 * of checking and reloading again. The database stays open until the request closes, even when another process
 * replaced the index meanwhile and a later request reloaded it.
 */
import type { IndexDatabase } from './database';

export interface IndexRequest {
  /** Commits the queued files the request's text mentions; runs once per request, however often it is awaited. */
  fresh(): Promise<void>;
  /** The index as of this request: after `fresh()`, read once; the same database (or error) on every call. */
  db(): Promise<IndexDatabase>;
  /** Lets go of the database (once the request's work is done). */
  close(): void;
}

export interface IndexRequests {
  /** A request about `text` (no text: nothing to commit just in time, e.g. a repo map). Nothing runs until asked. */
  open(text?: string): IndexRequest;
  /** `run` with a request about `text`, closed when it settles. */
  within<T>(text: string | undefined, run: (request: IndexRequest) => Promise<T>): Promise<T>;
}

/** How a request reads the index: `hold` a database until `letGo` (see IndexLifecycle). */
export interface HeldIndex {
  hold(): Promise<IndexDatabase>;
  letGo(db: IndexDatabase): void;
}

export function createIndexRequests(justInTime: (text: string) => Promise<void>, index: HeldIndex): IndexRequests {
  const open = (text?: string): IndexRequest => {
    let freshened: Promise<void> | undefined;
    let read: Promise<IndexDatabase> | undefined;
    const fresh = (): Promise<void> => (freshened ??= text === undefined ? Promise.resolve() : justInTime(text));
    return {
      fresh,
      db: () => (read ??= fresh().then(() => index.hold())),
      close() {
        read?.then((db) => index.letGo(db), () => undefined);
        read = Promise.reject(new Error('the request is closed'));
        read.catch(() => undefined);
      },
    };
  };
  return {
    open,
    async within(text, run) {
      const request = open(text);
      try {
        return await run(request);
      } finally {
        request.close();
      }
    },
  };
}
