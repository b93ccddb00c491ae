/**
 * Issue 19, the panel: results in an editor tab, the sidebar at its narrow width, the graph (layout, pan, zoom, click),
 * the empty states and the starter graph, plain words, Why downstream first. UI steps run in chromium through the
 * code-server harness (harness/ui-steps.mjs); under @vscode/test-electron they return undefined and only the
 * extension-side checks run.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AskResult } from '../../../src/core/oracle/types';
import type { ContextOracleApi } from '../../../src/extension/extension';
import { EXTENSION_ID, requestUi, waitFor, waitForStatus, workspaceRoot } from './helpers';

const api = (): ContextOracleApi => vscode.extensions.getExtension<ContextOracleApi>(EXTENSION_ID)!.exports;
const count = (type: string): number => api().panelState().posted.filter((t) => t === type).length;

interface Layout { width: number; paths: number; wrappedPaths: string[]; pathsWithoutTooltip: string[]; truncatedPaths: number; preWhiteSpace: string[]; preScrolling: number; feedOverflow: number }
interface ResultsCard { cards: number; title: string; visibleText: string; detailsOpen: boolean; layout: Layout; screenshot?: string }
interface Sidebar { cards: string[]; questions: string[]; answers: string[]; layout: Layout }

/** Engine words a user must not read on a card (they may sit behind the Details toggle, which starts closed). */
const INTERNAL = [/sha256:/, /cache (miss|l1|l2)/i, /\d{4}-\d\d-\d\dT\d\d:/, /max_nodes=/, /max_tokens=/, /code_symbols/, /\d+\/\d+ tokens/, /text_chunks/];

function assertPlain(text: string, where: string): void {
  for (const re of INTERNAL) assert.doesNotMatch(text, re, `${where} shows ${re}: ${text.slice(0, 600)}`);
}

async function setTheme(theme: string): Promise<void> {
  await vscode.workspace.getConfiguration('workbench').update('colorTheme', theme, vscode.ConfigurationTarget.Global);
  await new Promise((r) => setTimeout(r, 600));
}

suite('Oracle panel: editor tab, narrow sidebar, graph, empty states (issue 19)', () => {
  suiteSetup(async () => {
    await waitForStatus((s) => s.state === 'ready' && s.exists, 'an index');
  });

  test('bundles, the repo map and why-trees open in an editor tab, in plain words; the sidebar keeps the conversation', async () => {
    const bundles = count('bundle');
    const r = await vscode.commands.executeCommand<{ etag: string } | undefined>('contextOracle.contextBundle', 'greeting');
    assert.ok(r?.etag.startsWith('sha256:'), 'the engine still has its etag');
    await waitFor(() => api().panelState(), (s) => s.resultsReady, 'the results tab to say ready');
    assert.equal(count('bundle'), bundles + 1);
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('contextOracle.results'));
    assert.equal(tabs.length, 1, `one results tab: ${vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => t.label).join(', ')}`);
    const ui = await requestUi<ResultsCard>('results-card', { testid: 'bundle-card', minCards: count('bundle'), name: 'results-bundle' });
    if (ui) {
      assert.match(ui.title, /Context bundle: greeting/);
      assert.match(ui.visibleText, /related node|code symbol/);
      assert.equal(ui.detailsOpen, false, 'the details start closed');
      assertPlain(ui.visibleText, 'the bundle card');
      assert.equal(ui.layout.feedOverflow, 0, 'no horizontal scrollbar in the tab');
      const side = await requestUi<Sidebar>('sidebar', {});
      assert.ok(!side!.cards.includes('bundle-card'), `the sidebar holds the conversation only: ${side!.cards.join(', ')}`);
    }
    await vscode.commands.executeCommand('contextOracle.showRepoMap', { maxTokens: 512 });
    const map = await requestUi<ResultsCard>('results-card', { testid: 'map-card', minCards: count('map'), name: 'results-map' });
    if (map) {
      assertPlain(map.visibleText, 'the repo map');
      assert.doesNotMatch(map.visibleText, /\brank \d/, 'no rank figures');
      assert.equal(map.layout.wrappedPaths.length, 0, `paths on one line: ${map.layout.wrappedPaths.join(', ')}`);
    }
  });

  test('Why (Impact): downstream first and open, upstream below and collapsed, impact in plain words', async () => {
    await vscode.commands.executeCommand('contextOracle.why', 'greeting');
    const ui = await requestUi<{ branches: Array<{ testid: string; open: boolean }>; downstream: string[]; upstream: string[]; downstreamVisible: boolean; upstreamVisible: boolean; impact: string; title: string }>('why-tree', { minCards: count('why') });
    if (!ui) return;
    assert.deepEqual(ui.branches, [{ testid: 'downstream', open: true }, { testid: 'upstream', open: false }]);
    assert.deepEqual([...ui.downstream].sort(), ['banners', 'reporting']);
    assert.ok(ui.downstreamVisible, 'downstream is shown');
    assert.equal(ui.upstreamVisible, false, 'upstream is collapsed');
    assert.match(ui.impact, /^Changing it can affect 2 direct dependents/);
    assertPlain(ui.impact, 'the impact line');
  });

  test('the graph: laid out to fit, edge labels apart, pan and zoom, a click opens the why-tree', async () => {
    const whys = count('why');
    const view = await vscode.commands.executeCommand<{ nodes: unknown[]; edges: unknown[] } | undefined>('contextOracle.showGraph');
    assert.equal(view?.nodes.length, 4);
    const ui = await requestUi<{ nodes: number; edgeLabels: number; overlapping: string[]; allInside: boolean; before: string; zoomed: string; layoutMs: number; meta: string }>('graph', { clickRef: 'banners', minCards: count('graph'), name: 'results-graph' });
    if (!ui) return;
    console.log(`graph in the tab: ${ui.nodes} nodes, ${ui.edgeLabels} edge labels, layout ${ui.layoutMs} ms`);
    assert.equal(ui.nodes, 4);
    assert.equal(ui.edgeLabels, 4);
    assert.deepEqual(ui.overlapping, [], 'no edge label overlaps another label or a node');
    assert.ok(ui.allInside, 'fitted: every node is inside the view');
    assert.notEqual(ui.zoomed, ui.before, 'the wheel zooms');
    assert.match(ui.meta, /4 nodes, 4 links; click a node/);
    await waitFor(() => count('why'), (n) => n > whys, 'the click on banners to show its why-tree');
  });

  test('at sidebar width: paths stay on one line with the full path as tooltip, code scrolls, any card opens in the editor', async () => {
    await vscode.commands.executeCommand('contextOracle.search', 'salutation');
    const side = await requestUi<Sidebar>('sidebar', { name: 'sidebar-narrow' });
    if (!side) return;
    console.log(`sidebar: ${side.layout.width} px, ${side.layout.paths} paths (${side.layout.truncatedPaths} truncated), pre white-space ${side.layout.preWhiteSpace.join(',')}`);
    assert.ok(side.layout.width < 420, `the sidebar is narrow: ${side.layout.width} px`);
    assert.ok(side.layout.paths > 0);
    assert.deepEqual(side.layout.wrappedPaths, [], 'no path wraps');
    assert.deepEqual(side.layout.pathsWithoutTooltip, [], 'every path has its full text as a tooltip');
    assert.deepEqual(side.layout.preWhiteSpace, ['pre'], 'code keeps its lines and scrolls');
    assert.equal(side.layout.feedOverflow, 0, 'the feed has no horizontal scrollbar');
    const opened = await requestUi<{ before: number; after: number }>('open-in-editor', { testid: 'search-card' });
    assert.equal(opened!.after, opened!.before + 1, 'the search card opened in the editor tab');
  });

  test('"Nothing relevant found" shows no check mark', async () => {
    const q = 'zzyzx quokka marmalade teleporter?';
    const r = await vscode.commands.executeCommand<AskResult | undefined>('contextOracle.ask', q);
    assert.equal(r?.noContext, true, `the fixture has nothing on this: ${r?.answer.slice(0, 200)}`);
    const ui = await requestUi<{ phaseDone: string; phaseIcons: string[] }>('panel-ask', { question: q, explain: false });
    if (!ui) return;
    assert.match(ui.phaseDone, /Nothing relevant found/);
    assert.doesNotMatch(ui.phaseDone, /tokens/);
    assert.ok(!ui.phaseIcons.some((c) => c.includes('codicon-check')), `icons: ${ui.phaseIcons.join(' ')}`);
  });

  test('no graph: Graph and Lint explain what a graph is; the starter graph is written only on the click', async () => {
    const root = workspaceRoot();
    const graphDir = path.join(root, '.context-oracle', 'graph');
    const hidden = path.join(root, '.context-oracle', 'graph-hidden-for-test');
    const written = path.join(graphDir, 'architecture.yml');
    fs.renameSync(graphDir, hidden);
    try {
      const view = await vscode.commands.executeCommand<{ nodes: unknown[] } | undefined>('contextOracle.showGraph');
      assert.equal(view?.nodes.length, 0);
      const lint = await vscode.commands.executeCommand<{ violations: unknown[]; summary: { graph_files: string[] } } | undefined>('contextOracle.lint');
      assert.deepEqual(lint?.summary.graph_files, []);
      const graph = await requestUi<{ text: string }>('empty-graph', { testid: 'graph-card', minCards: count('graph'), name: 'results-graph-empty' });
      if (!graph) return;
      assert.match(graph.text, /no architecture graph yet/);
      assert.match(graph.text, /A graph names the parts of the system/);
      assert.doesNotMatch(graph.text, /0 nodes, 0 edges/);
      assert.equal(fs.existsSync(written), false, 'nothing is written before the click');
      const lintUi = await requestUi<{ text: string }>('empty-graph', { testid: 'lint-card', write: true, name: 'sidebar-lint-empty' });
      assert.doesNotMatch(lintUi!.text, /No violations/);
      assert.match(lintUi!.text, /nothing to check/);
      // The editor's file system creates the file before it writes the bytes: wait for the content, not the name.
      const text = await waitFor(() => (fs.existsSync(written) ? fs.readFileSync(written, 'utf8') : ''), (t) => t.length > 0, 'the starter graph to be written', 20_000);
      assert.match(text, /^# A starter graph proposed by Context Oracle/);
      assert.match(text, /source: "src\/"/);
      assert.match(text, /kind: package/);
      const drawn = await waitFor(() => vscode.commands.executeCommand<{ nodes: Array<{ ref_id: string }> }>('contextOracle.showGraph'), (v) => v.nodes.length > 0, 'the starter graph to load');
      assert.ok(drawn.nodes.some((n) => n.ref_id === 'src'), drawn.nodes.map((n) => n.ref_id).join(', '));
    } finally {
      fs.rmSync(graphDir, { recursive: true, force: true });
      fs.renameSync(hidden, graphDir);
    }
  });

  test('Reload Webviews: the results tab rebuilds its cards from its saved state', async () => {
    await vscode.commands.executeCommand('contextOracle.contextBundle', 'greeting');
    const before = await requestUi<ResultsCard>('results-card', { testid: 'bundle-card', minCards: count('bundle') });
    if (!before) return;
    await vscode.commands.executeCommand('workbench.action.webview.reloadWebviewAction');
    await new Promise((r) => setTimeout(r, 1500));
    const after = await requestUi<ResultsCard>('results-card', { testid: 'bundle-card', minCards: before.cards });
    assert.equal(after!.cards, before.cards, 'the same bundle cards after the reload');
    assert.equal(after!.title, before.title);
    assert.ok(api().panelState().resultsReady, 'the reloaded tab said ready');
  });

  test('LM tool names do not repeat the extension name', () => {
    const tools = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON.contributes.languageModelTools as { displayName: string }[];
    for (const t of tools) assert.doesNotMatch(t.displayName, /Context Oracle/, t.displayName);
  });

  test('screens in the dark and the light theme: the narrow sidebar, a bundle, the graph, a why-tree', async () => {
    if (!process.env.CONTEXT_ORACLE_IT_SIGNAL_DIR) return;
    const config = vscode.workspace.getConfiguration('workbench');
    const before = config.inspect<string>('colorTheme')?.globalValue;
    try {
      for (const [theme, suffix] of [['Default Dark Modern', 'dark'], ['Default Light Modern', 'light']] as const) {
        await setTheme(theme);
        const side = await requestUi<Sidebar>('sidebar', { name: `sidebar-narrow-${suffix}` });
        assert.deepEqual(side!.layout.wrappedPaths, []);
        await vscode.commands.executeCommand('contextOracle.contextBundle', 'greeting');
        await requestUi('results-card', { testid: 'bundle-card', minCards: count('bundle'), name: `results-bundle-${suffix}` });
        await vscode.commands.executeCommand('contextOracle.showGraph', 'greeting');
        await requestUi('graph', { name: `results-graph-${suffix}`, minCards: count('graph') });
        await vscode.commands.executeCommand('contextOracle.why', 'greeting');
        await requestUi('why-tree', { minCards: count('why') });
      }
    } finally {
      await config.update('colorTheme', before, vscode.ConfigurationTarget.Global);
    }
  });
});
