import { formatStatus } from '../format';
import { formatGraphStatus } from '../format-graph-status';
import type { Command } from './types';

export const statusCommand: Command = {
  name: 'status',
  summary: 'show what the index holds, and the architecture graph: kinds, docs coverage, stale pairs, bundle sizes',
  usage: 'status',
  flags: {},
  async run({ engine, flags, out }) {
    const status = await engine.status();
    const graph = await engine.graphStatus();
    if (flags.json) out(JSON.stringify({ ...status, graph }, null, 2));
    else out(graph ? `${formatStatus(status)}\n${formatGraphStatus(graph)}` : formatStatus(status));
    return 0;
  },
};
