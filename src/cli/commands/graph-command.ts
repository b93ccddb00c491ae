import { EngineError } from '../../core';
import type { Command } from './types';

export const graphCommand: Command = {
  name: 'graph',
  needsIndex: true,
  summary: 'the architecture graph (or the part around REF_IDs) as Mermaid or JSON',
  usage: 'graph [REF_ID...] [--depth N]',
  flags: { depth: { type: 'number' } },
  async run({ engine, positionals, flags, out }) {
    const view = await engine.graphView(positionals, flags.depth !== undefined ? { depth: Number(flags.depth) } : {});
    // A half-read graph drawn as if whole would mislead: fail with the files' errors instead.
    if (view.unreadable.length) {
      throw new EngineError('invalid_input', `the graph could not be read:\n${view.unreadable.map((i) => `  ${i.file}:${i.line}: ${i.message}`).join('\n')}`);
    }
    out(flags.json ? JSON.stringify({ nodes: view.nodes, edges: view.edges }, null, 2) : view.mermaid);
    return 0;
  },
};
