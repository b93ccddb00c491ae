import { formatStatus } from '../format';
import type { Command } from './types';

export const statusCommand: Command = {
  name: 'status',
  summary: 'show what the index holds',
  usage: 'status',
  flags: {},
  async run({ engine, flags, out }) {
    const status = await engine.status();
    out(flags.json ? JSON.stringify(status, null, 2) : formatStatus(status));
    return 0;
  },
};
