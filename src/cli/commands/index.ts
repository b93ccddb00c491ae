/** Every CLI command, in the order `--help` lists them. Add a command: one file, one line here. */
import { askCommand } from './ask-command';
import { contextCommand } from './context-command';
import { ctxCommand } from './ctx-command';
import { graphCommand } from './graph-command';
import { lintCommand } from './lint-command';
import { queryCommand } from './query-command';
import { syncCommand } from './sync-command';
import { whyCommand } from './why-command';
import { defCommand } from './def-command';
import { evalCommand } from './eval-command';
import { indexCommand } from './index-command';
import { mapCommand } from './map-command';
import { mcpCommand } from './mcp-command';
import { refsCommand } from './refs-command';
import { searchCommand } from './search-command';
import { statusCommand } from './status-command';
import { watchCommand } from './watch-command';
import type { Command } from './types';

export const COMMANDS: readonly Command[] = [indexCommand, statusCommand, searchCommand, watchCommand, defCommand, refsCommand, mapCommand, contextCommand, evalCommand, askCommand, mcpCommand,
  ctxCommand, whyCommand, graphCommand, lintCommand, syncCommand, queryCommand];
