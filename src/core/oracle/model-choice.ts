/**
 * Which model endpoint a question may use. The endpoint, the model and the API key variable come from the user:
 * the call (CLI flags), else the host's user-level configuration (editor user settings, environment, user config
 * file, resolved outside core and handed in through the UserModelSource port). A model named in the workspace's
 * `.context-oracle/oracle.json` is only a suggestion: a repository could otherwise send the user's key and code to
 * any URL. It is used only when the user approved it (`--trust-workspace-config`, or the editor's confirmation of
 * exactly that endpoint, model and key variable), and never over the user's own model.
 */
import { SETTINGS_FILE } from './settings';
import type { ModelSettings, UserModelConfig } from './types';

export interface ModelChoice {
  model?: ModelSettings;
  origin?: 'call' | 'user' | 'workspace';
  /** Set when the workspace file names a model that was not used for want of approval: why, and how to approve. */
  ignored?: string;
}

const DEFAULT_APPROVE_HINT = 'Approve it in your editor, or configure your own model in your user settings.';

/** What an approval in the editor is bound to: the endpoint, the model and the key variable, exactly. */
export function workspaceModelFingerprint(model: ModelSettings): string {
  return JSON.stringify([model.baseUrl, model.model, model.apiKeyEnv ?? null]);
}

function approved(user: UserModelConfig, workspace: ModelSettings): boolean {
  const trust = user.trustWorkspaceModel;
  return trust === true || (typeof trust === 'string' && trust === workspaceModelFingerprint(workspace));
}

/** The call's model (`null`: none), else the user's, else the workspace's if approved. */
export function chooseModel(call: ModelSettings | null | undefined, user: UserModelConfig, workspace: ModelSettings | undefined): ModelChoice {
  if (call === null) return {};
  if (call) return { model: call, origin: 'call' };
  if (user.model) return { model: user.model, origin: 'user' };
  if (!workspace) return {};
  if (approved(user, workspace)) return { model: workspace, origin: 'workspace' };
  const key = workspace.apiKeyEnv ? ` with the API key in $${workspace.apiKeyEnv}` : '';
  return {
    ignored: `${SETTINGS_FILE} asks for the model "${workspace.model}" at ${workspace.baseUrl}${key}, but a model chosen by a ` +
      `workspace file is used only after you approve it, so this answer comes from the evidence alone. ${user.approveHint ?? DEFAULT_APPROVE_HINT}`,
  };
}
