/**
 * Every MCP tool, in the order tools/list shows them. Add a tool: one file in this folder (a thin adapter over one
 * engine method), one line here. A tool is listed only once its engine method exists; there are no stubs.
 */
import type { ToolSpec } from '../tool';
import { askOracleTool } from './ask-oracle';
import { findDefinitionTool } from './find-definition';
import { findReferencesTool } from './find-references';
import { getContextTool } from './get-context';
import { getGraphTool } from './get-graph';
import { getNodeTool } from './get-node';
import { getRepoMapTool } from './get-repo-map';
import { indexStatusTool } from './index-status';
import { lintTool } from './lint';
import { listNodesTool } from './list-nodes';
import { markSyncedTool } from './mark-synced';
import { queryTool } from './query';
import { searchCodeTool } from './search-code';
import { syncCheckTool } from './sync-check';
import { whyTool } from './why';

export const TOOLS: readonly ToolSpec[] = [
  askOracleTool,
  searchCodeTool,
  findDefinitionTool,
  findReferencesTool,
  getRepoMapTool,
  getContextTool,
  whyTool,
  // The architecture graph (beadloom's and brane's tools): nodes, the graph, lint, doc sync, concept query.
  listNodesTool,
  getNodeTool,
  getGraphTool,
  queryTool,
  lintTool,
  syncCheckTool,
  markSyncedTool,
  indexStatusTool,
] as readonly ToolSpec[];
