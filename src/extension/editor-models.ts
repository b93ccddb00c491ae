/**
 * The editor's own language models (VS Code's Language Model API: Copilot's, or any extension's) for the Oracle
 * panel. Without any model VS Code refuses @oracle chat requests ("Language model unavailable") before a
 * participant's handler runs, so that is detected here and said where people look (the log, the model pick, the
 * walkthrough): the panel answers without a model, from the evidence. When models exist the user may pick one for
 * the panel (Select Model for the Panel, the `contextOracle.panel.model` setting); the server then asks this module
 * to run it (`contextOracle/lm/chat`), and the panel names it under each answer ("Answered by …").
 */
import * as vscode from 'vscode';
import type { ClientRequestHandlers } from './oracle-client';

export const SELECT_PANEL_MODEL = 'contextOracle.selectPanelModel';
const SETTING = 'panel.model';

export const NO_MODEL_TEXT = 'No language model is available in this editor (GitHub Copilot, or another model provider, is not installed or signed in), '
  + 'so @oracle in Chat cannot answer: VS Code stops such requests with "Language model unavailable". '
  + 'The Oracle panel answers without a model, from the evidence it finds.';

export class EditorModels implements vscode.Disposable {
  private models: vscode.LanguageModelChat[] = [];
  private readonly changed = new vscode.EventEmitter<void>();
  /** The list of models or the chosen one changed. */
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[] = [this.changed];

  constructor(private readonly log: vscode.LogOutputChannel) {
    if (typeof vscode.lm?.onDidChangeChatModels === 'function') this.subscriptions.push(vscode.lm.onDidChangeChatModels(() => void this.refresh()));
    this.subscriptions.push(vscode.workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration(`contextOracle.${SETTING}`)) this.changed.fire(); }));
  }

  async refresh(): Promise<void> {
    const had = this.models.length;
    this.models = typeof vscode.lm?.selectChatModels === 'function' ? await vscode.lm.selectChatModels().then((m) => m, () => []) : [];
    void vscode.commands.executeCommand('setContext', 'contextOracle.languageModelAvailable', this.models.length > 0);
    if (!this.models.length) this.log.info(NO_MODEL_TEXT);
    else if (!had) this.log.info(`language models available: ${this.models.map((m) => m.name).join(', ')}`);
    this.changed.fire();
  }

  get available(): readonly vscode.LanguageModelChat[] {
    return this.models;
  }

  /** The model chosen for the panel, when it is available now. */
  chosen(): string | undefined {
    // The user's choice only (application scope): a workspace cannot pick where its questions go.
    const name = (vscode.workspace.getConfiguration('contextOracle').inspect<string>(SETTING)?.globalValue ?? '').trim();
    return name && this.find(name) ? this.find(name)!.name : undefined;
  }

  private find(name: string): vscode.LanguageModelChat | undefined {
    return this.models.find((m) => m.name === name) ?? this.models.find((m) => m.id === name);
  }

  /** The server's request to run the chosen model on the oracle's prompt. */
  /** Where the parts of a streamed answer go (the language client, once it exists). */
  sendChunk: ((stream: string, text: string) => void) | undefined;

  readonly handlers: Pick<ClientRequestHandlers, 'contextOracle/lm/chat'> = {
    'contextOracle/lm/chat': async ({ model, messages, stream }, token) => {
      const m = this.find(model);
      if (!m) throw new Error(`the language model "${model}" is not available`);
      // The Language Model API has no system role: the instructions go first, as the user's.
      const chat = messages.map((x) => (x.role === 'assistant' ? vscode.LanguageModelChatMessage.Assistant(x.content) : vscode.LanguageModelChatMessage.User(x.content)));
      const response = await m.sendRequest(chat, { justification: 'Context Oracle answers the question you asked in its panel with the model you chose.' }, token);
      let text = '';
      for await (const part of response.text) {
        text += part;
        // Each part reaches the server as it comes, ahead of this request's answer (the same connection keeps order).
        if (stream && part) this.sendChunk?.(stream, part);
      }
      return { text };
    },
  };

  /** Select Model for the Panel: a quick pick of the models, or `name` ('' for none) without asking. */
  async select(name?: string): Promise<string | undefined> {
    await this.refresh();
    if (typeof name !== 'string') {
      if (!this.models.length) {
        void vscode.window.showInformationMessage(NO_MODEL_TEXT);
        return undefined;
      }
      const current = this.chosen();
      const pick = await vscode.window.showQuickPick([
        { label: '$(circle-slash) No model', description: 'answer from the evidence', name: '' },
        ...this.models.map((m) => ({ label: m.name, description: `${m.vendor} · ${m.family}${m.name === current ? ' · current' : ''}`, name: m.name })),
      ], { title: 'Model for the Oracle panel', placeHolder: 'The panel sends the question and the evidence it found to this model' });
      if (!pick) return undefined;
      name = pick.name;
    }
    await vscode.workspace.getConfiguration('contextOracle').update(SETTING, name || undefined, vscode.ConfigurationTarget.Global);
    this.log.info(name ? `the panel answers with ${name}` : 'the panel answers without a model');
    return name;
  }

  dispose(): void {
    for (const d of this.subscriptions) d.dispose();
  }
}
