/**
 * The empty Graph state's button: asks the engine for a starter graph (folders as nodes, imports as edges), writes it
 * to the graph folder unless a graph file is already there, opens it for editing and draws it.
 */
import * as vscode from 'vscode';
import type { OracleClient } from '../oracle-client';

/** The path written (workspace-relative), or undefined when the workspace already had a graph or nothing to propose. */
export async function writeStarterGraph(client: OracleClient, log: vscode.LogOutputChannel): Promise<string | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) return undefined;
  const proposal = await client.request('contextOracle/starterGraph', {});
  const target = vscode.Uri.joinPath(folder.uri, ...proposal.path.split('/'));
  const exists = await vscode.workspace.fs.stat(target).then(() => true, () => false);
  if (exists || proposal.declared) {
    void vscode.window.showInformationMessage(`Context Oracle: the workspace already has a graph${exists ? ` (${proposal.path})` : ''}; nothing was written.`);
    if (exists) await vscode.window.showTextDocument(target, { preview: false });
    return undefined;
  }
  if (!proposal.nodes.length) {
    void vscode.window.showInformationMessage('Context Oracle: the index has no folders to propose as a graph yet.');
    return undefined;
  }
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(proposal.yaml));
  log.info(`wrote a starter graph to ${proposal.path}: ${proposal.nodes.length} nodes, ${proposal.edges.length} edges`);
  await vscode.window.showTextDocument(target, { preview: false });
  await vscode.commands.executeCommand('contextOracle.showGraph');
  return proposal.path;
}
