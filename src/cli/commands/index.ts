/** Every CLI command, in the order `--help` lists them. Add a command: one file, one line here. */
import { indexCommand } from './index-command';
import { searchCommand } from './search-command';
import { statusCommand } from './status-command';
import { watchCommand } from './watch-command';
import type { Command } from './types';

export const COMMANDS: readonly Command[] = [indexCommand, statusCommand, searchCommand, watchCommand];
