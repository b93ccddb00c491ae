/**
 * One request's view of the index. A request (a question, a symbol lookup, a repo map) checks freshness once —
 * the queued files its text mentions are committed just in time — and then reads the index once; every capability
 * the request reaches (the oracle's smart context, navigation and repo map) is handed that same database instead
 * of checking and reloading again.
 */
import type { IndexDatabase } from './database';

export interface IndexRequest {
  /** Commits the queued files the request's text mentions; runs once per request, however often it is awaited. */
  fresh(): Promise<void>;
  /** The index as of this request: after `fresh()`, read once; the same database (or error) on every call. */
  db(): Promise<IndexDatabase>;
}

export interface IndexRequests {
  /** A request about `text` (no text: nothing to commit just in time, e.g. a repo map). Nothing runs until asked. */
  open(text?: string): IndexRequest;
}

export function createIndexRequests(justInTime: (text: string) => Promise<void>, readable: () => Promise<IndexDatabase>): IndexRequests {
  return {
    open(text) {
      let freshened: Promise<void> | undefined;
      let read: Promise<IndexDatabase> | undefined;
      const fresh = (): Promise<void> => (freshened ??= text === undefined ? Promise.resolve() : justInTime(text));
      return { fresh, db: () => (read ??= fresh().then(readable)) };
    },
  };
}
