/**
 * The user's model for the Oracle, as the editor knows it: `contextOracle.model.*` from the user's settings only
 * (the settings have application scope, and only the global value is read, so `.vscode/settings.json` cannot set
 * them), and whether the user approved the model a workspace's `.context-oracle/oracle.json` asks for. Approval
 * needs a trusted workspace and an explicit modal confirmation naming the endpoint, model and key variable; it is
 * bound to exactly those (a changed file needs a new approval).
 */
import * as vscode from 'vscode';
import { type ModelSettings, parseSettings, SETTINGS_FILE, workspaceModelFingerprint } from '../core';
import type { EditorModelConfig } from '../protocol/language-server';
import { errorMessage } from './errors';
import { SELECT_PANEL_MODEL, type EditorModels } from './editor-models';
import type { OracleClient } from './oracle-client';

export const APPROVE_WORKSPACE_MODEL = 'contextOracle.approveWorkspaceModel';
const APPROVAL_KEY = 'contextOracle.approvedWorkspaceModel';

function userModel(): ModelSettings | undefined {
  const c = vscode.workspace.getConfiguration('contextOracle');
  const user = (key: string): string => (c.inspect<string>(key)?.globalValue ?? '').trim();
  const baseUrl = user('model.baseUrl');
  const model = user('model.name');
  if (!baseUrl || !model) return undefined;
  const apiKeyEnv = user('model.apiKeyEnv');
  return { baseUrl, model, ...(apiKeyEnv ? { apiKeyEnv } : {}) };
}

export function readEditorModelConfig(state: vscode.Memento, editorModel?: string): EditorModelConfig {
  const model = userModel();
  const approved = vscode.workspace.isTrusted ? state.get<string>(APPROVAL_KEY) : undefined;
  return { ...(model ? { model } : {}), ...(approved ? { approvedWorkspaceModel: approved } : {}), ...(editorModel ? { editorModel } : {}) };
}

async function workspaceModel(): Promise<ModelSettings | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) return undefined;
  let bytes: Uint8Array;
  try {
    bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder.uri, SETTINGS_FILE));
  } catch {
    return undefined;
  }
  return parseSettings(JSON.parse(new TextDecoder().decode(bytes))).model;
}

/** The approval command, and the notifications that keep the server's copy current. */
export function registerModelConfig(context: vscode.ExtensionContext, client: OracleClient, models: EditorModels, log: vscode.LogOutputChannel): vscode.Disposable[] {
  const send = (): void => client.notify('contextOracle/modelConfig', readEditorModelConfig(context.workspaceState, models.chosen()));
  const approve = async (): Promise<void> => {
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage('Context Oracle: a workspace\'s model can only be used in a trusted workspace. Trust the workspace first.');
      return;
    }
    let model: ModelSettings | undefined;
    try {
      model = await workspaceModel();
    } catch (e) {
      void vscode.window.showErrorMessage(`Context Oracle: ${SETTINGS_FILE} cannot be read: ${errorMessage(e)}`);
      return;
    }
    if (!model) {
      void vscode.window.showInformationMessage(`Context Oracle: this workspace's ${SETTINGS_FILE} names no model.`);
      return;
    }
    const key = model.apiKeyEnv ? `, with the API key in your environment variable ${model.apiKeyEnv}` : '';
    const choice = await vscode.window.showWarningMessage(
      `This workspace's ${SETTINGS_FILE} asks Context Oracle to send your questions and excerpts of your code to ${model.baseUrl} (model "${model.model}")${key}.`,
      { modal: true, detail: 'Allow it only if you trust whoever wrote that file. The approval holds for exactly this endpoint, model and key variable.' },
      'Allow',
    );
    if (choice !== 'Allow') return;
    await context.workspaceState.update(APPROVAL_KEY, workspaceModelFingerprint(model));
    log.info(`workspace model approved: ${model.model} at ${model.baseUrl}`);
    send();
  };
  return [
    vscode.commands.registerCommand(APPROVE_WORKSPACE_MODEL, approve),
    vscode.workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration('contextOracle.model')) send(); }),
    models.onDidChange(send),
    vscode.commands.registerCommand(SELECT_PANEL_MODEL, (name?: string) => models.select(name)),
  ];
}
