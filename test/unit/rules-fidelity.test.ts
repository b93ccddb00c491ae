/**
 * Rule semantics as beadloom evaluates them (src/beadloom/graph/rules/evaluators.py at 437b886), each on a workspace
 * small enough to read: fnmatch globs, module paths for forbid_import, deny's target and source nodes, module_coverage,
 * unregistered_feature_candidate and check.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fnmatch } from '../../src/core/rules/fnmatch';
import type { Engine } from '../../src/core/engine';
import { makeWorkspace, removeWorkspace, testEngine } from '../helpers/workspace';

const GRAPH = `nodes:
  - { ref_id: app, kind: service, source: src/app/ }
  - { ref_id: core, kind: domain, source: src/app/core/ }
  - { ref_id: agents, kind: domain, source: src/app/ai_agents/ }
  - { ref_id: application, kind: domain, source: src/app/application/ }
  - { ref_id: infra, kind: domain, source: src/app/infra/ }
  - { ref_id: cli, kind: service, source: src/app/services/cli.py }
  - { ref_id: tui, kind: service, source: src/app/tui/ }
  - { ref_id: report, kind: feature, source: src/app/core/report.py }
edges:
  - { src: core, dst: app, kind: part_of }
  - { src: application, dst: app, kind: part_of }
`;

const RULES = `version: 3
rules:
  - name: core-no-agents
    forbid_import: { from: "src/app/[!a]*/**", to: "app/ai_agents/**" }
  - name: application-no-agents
    forbid_import: { from: "src/app/a[!i]*/**", to: "app/ai_agents/**" }
  - name: never-matches-a-module-path
    forbid_import: { from: "src/app/core/**", to: "src/app/infra/**" }
  - name: core-no-infra
    forbid_import: { from: "src/app/core/*", to: "app/infra/*" }
  - name: no-domain-to-service
    deny: { from: { kind: domain }, to: { kind: service }, unless_edge: [part_of] }
  - name: coverage
    severity: error
    module_coverage: { source_root: src/app/, exempt: ["**/__init__.py"] }
  - name: candidates
    unregistered_feature_candidate: { for: { kind: domain }, min_symbols: 2 }
  - name: no-core-edge-to-tui
    forbid: { from: { ref_id: core }, to: { kind: service }, edge_kind: depends_on }
  - name: doc-floor
    check: { for: { kind: domain, exclude: [agents, application] }, min_doc_coverage: 0.5 }
`;

const FILES: Record<string, string> = {
  '.beadloom/config.yml': 'scan_paths:\n- src\n',
  '.beadloom/_graph/services.yml': GRAPH,
  '.beadloom/_graph/rules.yml': RULES,
  'src/app/__init__.py': '',
  // core imports ai_agents (forbidden), infra (top level and in a function), the cli module and the tui service.
  'src/app/core/engine.py': [
    '# beadloom:domain=core',
    '# beadloom:feature=report',
    'from app.ai_agents.writer import write',
    'from app.infra.db import connect',
    'from app.services.cli import main',
    'from app.tui.screen import draw',
    '',
    '',
    'def run():',
    '    from app.infra.cache import warm',
    '    return warm()',
    '',
    '',
    'def stop():',
    '    pass',
  ].join('\n'),
  'src/app/core/report.py': '# beadloom:domain=core\n\n\ndef build():\n    pass\n',
  'src/app/core/helpers.py': '# beadloom:domain=core\n\n\ndef one():\n    pass\n\n\ndef two():\n    pass\n',
  'src/app/core/constants.py': '# beadloom:domain=core\n# beadloom:feature=report\nLIMIT = 3\n',
  // ai_agents may import itself: neither core rule covers its own folder.
  'src/app/ai_agents/writer.py': '# beadloom:domain=agents\n# beadloom:component=writer\nfrom app.ai_agents.models import Model\n\n\ndef write():\n    pass\n',
  'src/app/ai_agents/models.py': '# beadloom:domain=agents\n# beadloom:component=models\n\n\nclass Model:\n    pass\n',
  'src/app/application/service.py': '# beadloom:domain=application\n# beadloom:feature=svc\nfrom app.ai_agents.writer import write\n\n\ndef serve():\n    pass\n',
  'src/app/infra/db.py': '# beadloom:domain=infra\n# beadloom:component=db\n\n\ndef connect():\n    pass\n',
  'src/app/infra/cache.py': '# beadloom:domain=infra\n# beadloom:component=cache\n\n\ndef warm():\n    pass\n',
  'src/app/services/cli.py': '\n\ndef main():\n    pass\n',
  'src/app/tui/screen.py': '\n\ndef draw():\n    pass\n',
  // Outside scan_paths: beadloom never reads it, so its import of the tui breaks nothing.
  'tests/test_engine.py': '# beadloom:domain=core\nfrom app.tui.screen import draw\n\n\ndef test_run():\n    pass\n',
};

describe('rule semantics as beadloom evaluates them', () => {
  let root: string;
  let engine: Engine;
  let found: string[];
  before(async () => {
    root = makeWorkspace(FILES);
    engine = testEngine(root);
    await engine.index();
    const report = await engine.lint();
    found = report.violations.map((v) => `${v.rule} ${v.file ?? ''}:${v.line ?? ''} ${v.from ?? ''}->${v.to ?? ''}`);
  });
  after(async () => {
    await engine.dispose();
    removeWorkspace(root);
  });

  it('fnmatch: [!…] negates, * crosses folders, the whole path must match', () => {
    assert.equal(fnmatch('src/app/ai_agents/writer.py', 'src/app/a[!i]*/**'), false);
    assert.equal(fnmatch('src/app/application/service.py', 'src/app/a[!i]*/**'), true);
    assert.equal(fnmatch('src/app/core/deep/x.py', 'src/app/core/*'), true, 'fnmatch * matches /');
    assert.equal(fnmatch('a]', 'a[]]'), true);
    assert.equal(fnmatch('x/src/a.py', 'src/*'), false);
  });

  it('forbid_import matches the module path (dots as slashes), not the resolved file; [!a] and a[!i] keep ai_agents out', () => {
    const imports = found.filter((f) => /^(core-no-agents|application-no-agents|never-matches|core-no-infra)/.test(f));
    assert.deepEqual(imports, [
      'application-no-agents src/app/application/service.py:3 ->',
      'core-no-agents src/app/core/engine.py:3 ->',
      // app/infra/db matches app/infra/*; the import inside run() is not module level, so beadloom never records it.
      'core-no-infra src/app/core/engine.py:4 ->',
    ]);
  });

  it('deny: the target is the deepest folder node of the module path; a file source is never one; tests outside scan_paths are not read', () => {
    // app.services.cli walks up to the root service `app` (core is part_of it: exempt), not to the `cli` file node;
    // app.tui.screen reaches the tui folder node. The source node is the file's first annotation (core, not report).
    assert.deepEqual(found.filter((f) => f.startsWith('no-domain-to-service')), ['no-domain-to-service src/app/core/engine.py:6 core->tui']);
  });

  it('module_coverage: annotated, node-sourced, under a non-domain folder node or exempt; a module of constants is still a module', () => {
    // Covered: engine.py (feature), report.py and services/cli.py (a node's file source), tui/screen.py (under the
    // tui service's folder), ai_agents and infra modules (component), __init__.py (exempt). Not: helpers.py (domain
    // only; a domain's folder is ownership, not coverage) and constants.py, whose feature annotation sits on no
    // definition, so beadloom has no symbol row to read it from.
    assert.deepEqual(found.filter((f) => f.startsWith('coverage')), ['coverage src/app/core/constants.py: ->', 'coverage src/app/core/helpers.py: ->']);
  });

  it('unregistered_feature_candidate: domain-annotated modules with no feature and enough definitions', () => {
    // report.py is domain-only too, with one definition (min_symbols 2).
    assert.deepEqual(found.filter((f) => f.startsWith('candidates')), ['candidates src/app/core/helpers.py: core->']);
  });

  it('graph rules also see the depends_on edges beadloom derives from imports (folder owner → import target)', () => {
    // core → app (the cli module walks up to the root service) is not forbidden: only edges to a service are, and
    // both core → app and core → tui qualify; infra and agents are domains.
    assert.deepEqual(found.filter((f) => f.startsWith('no-core-edge-to-tui')), [
      'no-core-edge-to-tui src/app/core/engine.py:5 core->app', 'no-core-edge-to-tui src/app/core/engine.py:6 core->tui',
    ]);
  });

  it('check.min_doc_coverage: a node with no doc↔code pairs in sync has coverage 0', () => {
    assert.deepEqual(found.filter((f) => f.startsWith('doc-floor')).map((f) => f.replace(/ \S+:\d+ /, ' ')), ['doc-floor core->', 'doc-floor infra->']);
  });
});

describe('deny without a beadloom config', () => {
  it('an unannotated file belongs to the node whose source holds it; module paths are tried from the root first', async () => {
    const root = makeWorkspace({
      '.context-oracle/graph/g.yml': 'nodes:\n  - { ref_id: shop, kind: service, source: src/ }\n  - { ref_id: billing, kind: domain, source: src/billing/ }\n  - { ref_id: auth, kind: domain, source: src/auth/ }\n',
      '.context-oracle/rules.yml': 'rules:\n  - name: billing-not-auth\n    deny: { from: { ref_id: billing }, to: { ref_id: auth } }\n',
      'src/billing/pay.py': 'from src.auth.users import current\n\n\ndef pay():\n    pass\n',
      'src/auth/users.py': 'def current():\n    pass\n',
    });
    const engine = testEngine(root);
    try {
      await engine.index();
      const report = await engine.lint();
      assert.deepEqual(report.violations.map((v) => `${v.rule} ${v.file}:${v.line} ${v.from}->${v.to}`), ['billing-not-auth src/billing/pay.py:1 billing->auth']);
    } finally {
      await engine.dispose();
      removeWorkspace(root);
    }
  });
});
