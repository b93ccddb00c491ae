/**
 * MCP progress notifications for one request that carried a progressToken. The protocol requires `progress` to grow
 * with every notification, across everything the request reports: first the index it waited for (listing files = 0,
 * parsing = files parsed, writing = parsed + 0.5, done = parsed + 1, against total = files to parse + 1), then the
 * tool's own steps (each one more than the last value sent, without a total).
 */
import type { IndexProgress } from '../core';
import { describeProgress } from './index-gate';

export interface ProgressSink {
  progressToken?: string | number;
  send(notification: { method: 'notifications/progress'; params: { progressToken: string | number; progress: number; total?: number; message?: string } }): Promise<void>;
}

export interface ProgressReporter {
  /** Progress of the index run the request waits for. */
  index(p: IndexProgress): void;
  /** A step of the tool's own work, e.g. "searching code, docs". */
  step(message: string): void;
}

/** A reporter for this request, or undefined when the request asked for no progress. */
export function progressReporter(sink: ProgressSink): ProgressReporter | undefined {
  const token = sink.progressToken;
  if (token === undefined) return undefined;
  let last = -1;
  const send = (progress: number, total: number | undefined, message: string): void => {
    if (progress <= last) return;
    last = progress;
    sink
      .send({ method: 'notifications/progress', params: { progressToken: token, progress, ...(total ? { total } : {}), message } })
      .catch(() => undefined); // the client may have gone; the answer itself reports any real failure
  };
  return {
    index(p) {
      const { progress, total } = scale(p);
      send(progress, total, `indexing the workspace: ${describeProgress(p)}`);
    },
    step(message) {
      send(Math.floor(last) + 1, undefined, message);
    },
  };
}

function scale(p: IndexProgress): { progress: number; total?: number } {
  switch (p.phase) {
    case 'walking': return { progress: 0 };
    case 'parsing': return { progress: p.done, total: p.total + 1 };
    case 'persisting': return { progress: p.total + 0.5, total: p.total + 1 };
    case 'done': return { progress: p.total + 1, total: p.total + 1 };
  }
}
