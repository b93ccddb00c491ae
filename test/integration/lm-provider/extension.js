// A language model provider the integration suite uses in place of a Copilot model: it is registered with VS Code's
// own API (vscode.lm.registerLanguageModelChatProvider), so the extension under test finds it with
// vscode.lm.selectChatModels and runs it with sendRequest exactly as it would run Copilot's. Its answer is fixed
// text that quotes how many messages and characters it received and cites evidence [1], so a test can tell it
// answered; it comes word by word, 120 ms apart, so a test can tell it was streamed. The model exists only after the suite runs contextOracleTest.registerModel: the suite starts with none,
// as a user without Copilot does.
const vscode = require('vscode');

const MODEL = {
  id: 'context-oracle-test-echo', name: 'Test Echo Model', family: 'echo', version: '1', tooltip: 'integration-test model',
  maxInputTokens: 200000, maxOutputTokens: 2000, capabilities: {},
};

function activate(context) {
  let registration;
  const register = () => {
    if (registration) return true;
    registration = vscode.lm.registerLanguageModelChatProvider('context-oracle-test', {
      provideLanguageModelChatInformation: () => [MODEL],
      async provideLanguageModelChatResponse(_model, messages, _options, progress) {
        const chars = messages.reduce((n, m) => n + m.content.reduce((k, p) => k + (p.value?.length ?? 0), 0), 0);
        // In parts, a moment apart, as a real model streams: the panel must show the answer growing.
        const text = `The test echo model read ${messages.length} messages (${chars} characters) and answers from evidence [1].`;
        for (const part of text.match(/\S+\s*/g)) {
          progress.report(new vscode.LanguageModelTextPart(part));
          await new Promise((r) => setTimeout(r, 120));
        }
      },
      provideTokenCount: async (_model, text) => Math.ceil((typeof text === 'string' ? text.length : 100) / 4),
    });
    context.subscriptions.push(registration);
    return true;
  };
  // The suite turns the model on and off, as signing in to Copilot and out would.
  context.subscriptions.push(
    vscode.commands.registerCommand('contextOracleTest.registerModel', register),
    vscode.commands.registerCommand('contextOracleTest.unregisterModel', () => { registration?.dispose(); registration = undefined; return true; }),
  );
}

module.exports = { activate };
