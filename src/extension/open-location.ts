import * as vscode from 'vscode';
import { workspaceFile } from './panel/panel-messages';
import { folderOf } from './navigation-bridge';

/**
 * Opens a workspace file at 1-based lines (citations, nodes, search hits) with the lines selected and revealed.
 * The path is checked again here: only workspace-relative paths (`folderName/path` with several folders) whose real
 * path (symlinks followed) is a file inside that folder are opened.
 */
export async function openLocation(path: string, line?: number, endLine?: number): Promise<void> {
  const at = folderOf(path);
  const root = at?.folder.uri;
  const rel = root?.scheme === 'file' ? await workspaceFile(root.fsPath, at!.rel) : undefined;
  const uri = rel ? vscode.Uri.joinPath(root!, ...rel.split('/')) : undefined;
  if (!uri) throw new Error(`not a file inside the workspace: ${path}`);
  const doc = await vscode.workspace.openTextDocument(uri);
  const start = Math.min(Math.max(0, (line ?? 1) - 1), Math.max(0, doc.lineCount - 1));
  const end = Math.min(Math.max(start, (endLine ?? line ?? 1) - 1), Math.max(0, doc.lineCount - 1));
  const range = new vscode.Range(start, 0, end, doc.lineAt(end).text.length);
  await vscode.window.showTextDocument(doc, { selection: new vscode.Range(start, 0, start, 0), preview: true, viewColumn: vscode.ViewColumn.One });
  const ed = vscode.window.activeTextEditor;
  if (ed && ed.document === doc) {
    ed.selection = new vscode.Selection(range.start, range.end);
    ed.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }
}
