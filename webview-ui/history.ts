/**
 * The messages that made the panel's cards, kept in the webview's saved state so the cards come back after a reload.
 * Streaming events are dropped once an answer is done (its `done` event holds the whole result); the oldest cards go
 * first past MAX_CARDS, and big graphs are not kept (the command draws them again).
 */
import type { HostMessage } from '../src/protocol/webview';

const MAX_CARDS = 40;
const MAX_SAVED_GRAPH_NODES = 400;

export interface SavedState {
  v: 1;
  messages: HostMessage[];
}

export function readSaved(state: unknown): HostMessage[] {
  const s = state as Partial<SavedState> | undefined;
  return s && s.v === 1 && Array.isArray(s.messages) ? s.messages : [];
}

/** Whether a message starts a card (the unit of MAX_CARDS). */
const starts = (m: HostMessage): boolean => !['askEvent', 'askEnded', 'prefill', 'cleared', 'model'].includes(m.type);

export function remember(list: HostMessage[], m: HostMessage): HostMessage[] {
  switch (m.type) {
    case 'prefill':
    case 'model': // the host sends it at every start
      return list;
    case 'cleared':
      return [];
    case 'askEvent':
      // Only the final event matters once replayed.
      return m.event.type === 'done' ? [...list, m] : list;
    case 'graph':
      if (m.view.nodes.length > MAX_SAVED_GRAPH_NODES) return list;
      break;
    default:
      break;
  }
  const next = [...list, m];
  let cards = next.filter(starts).length;
  let i = 0;
  while (cards > MAX_CARDS && i < next.length) {
    if (starts(next[i]!)) cards--;
    i++;
    while (i < next.length && !starts(next[i]!)) i++;
  }
  return i ? next.slice(i) : next;
}

/** The saved messages that made the card `key` (a result's key, or an answer's ask id), in order. */
export function cardMessages(list: HostMessage[], key: string): HostMessage[] {
  return list.filter((m) => ('key' in m && m.key === key) || ('id' in m && m.id === key));
}
