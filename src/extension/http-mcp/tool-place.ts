/** The place a position tool (`definition_at`, `references_at`) is asked about, checked; no 'vscode' import. */
import type { NavLocation } from '../../core';
import { workspaceFile } from '../panel/panel-messages';
import { ToolInputError } from './mcp-http-server';

/**
 * `args.path`/`line`/`column` as a NavLocation, or ToolInputError. The path must name a file whose real path (symlinks
 * followed, the root's too) is inside the workspace root, so a link pointing out of the workspace is refused.
 */
export async function placeIn(root: string | undefined, args: Record<string, unknown>): Promise<NavLocation> {
  const path = root ? await workspaceFile(root, args.path) : undefined;
  if (!path) throw new ToolInputError('path must be a workspace-relative path of a file inside the workspace (no "..", no absolute paths, no links out)');
  const line = Number(args.line);
  const column = Number(args.column ?? 1);
  if (!Number.isInteger(line) || line < 1 || !Number.isInteger(column) || column < 1) throw new ToolInputError('line and column are 1-based integers');
  return { path, line, column };
}
