/** `references` from the index: import resolution, re-exports, namesakes left out, proximity order, limits. */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Engine } from '../../src/core/engine';
import type { ReferenceHit } from '../../src/core/model';
import { makeWorkspace, removeWorkspace, testEngine } from '../helpers/workspace';

const engines: Engine[] = [];
const roots: string[] = [];
after(async () => {
  for (const e of engines) await e.dispose();
  roots.forEach(removeWorkspace);
});

async function fixture(name: string): Promise<Engine> {
  const root = mkdtempSync(join(tmpdir(), `co-nav-${name}-`));
  cpSync(resolve('test/fixtures/navigation', name), root, { recursive: true });
  roots.push(root);
  const engine = testEngine(root);
  engines.push(engine);
  await engine.index();
  return engine;
}

const at = (hits: ReferenceHit[]): string[] => hits.map((h) => `${h.path}:${h.line}:${h.column} ${h.kind}`);

describe('references: TypeScript', () => {
  let ts: Engine;
  before(async () => { ts = await fixture('ts'); });

  it('follows imports and re-exports, includes import statements, leaves out an unrelated namesake', async () => {
    const r = await ts.references('route');
    assert.equal(r.source, 'index');
    assert.equal(r.definition.path, 'src/router.ts');
    assert.deepEqual(at(r.results), [
      'src/router.ts:17:5 call',
      'src/server.ts:1:10 import',
      'src/server.ts:8:12 call',
      'src/app.ts:1:24 import',
      'src/app.ts:4:41 call',
    ]);
    assert.deepEqual(r.results.map((h) => h.proximity), ['same-file', 'imports', 'imports', 're-export', 're-export']);
    assert.equal(r.results[2]!.preview, 'return route(this.port);');
    assert.equal(r.results[2]!.inSymbol, 'Server.listen');
    assert.ok(!r.results.some((h) => h.path === 'src/other/labels.ts'), 'labels.ts has its own route');
  });

  it('finds value uses the captures miss: re-export lists, arguments, type positions', async () => {
    const server = await ts.references('Server');
    const where = at(server.results);
    assert.ok(where.includes('src/index.ts:2:10 import'), 'export { Server } from');
    assert.ok(where.includes('test/server.test.ts:7:12 class'), 'new Server(1)');
    const handler = at((await ts.references('Handler')).results);
    assert.ok(handler.includes('src/app.ts:2:15 import'));
    assert.ok(handler.includes('src/app.ts:4:16 type'));
  });

  it('finds a method through receivers only, in files that get the class', async () => {
    const r = await ts.references('Server.listen');
    assert.deepEqual(at(r.results), ['test/server.test.ts:4:12 call', 'src/app.ts:9:22 call'],
      'the bare listen() call in the test is its own function');
    assert.deepEqual(r.results.map((h) => h.proximity), ['imports', 're-export'], 'importers first, then through the barrel');
  });

  it('honours --limit and reports the total', async () => {
    const r = await ts.references('Server', { limit: 2 });
    assert.equal(r.results.length, 2);
    assert.ok(r.total > 2);
    assert.equal(r.results[0]!.proximity, 'same-file');
  });
});

describe('references: Python and Go', () => {
  let py: Engine;
  let go: Engine;
  before(async () => { [py, go] = await Promise.all([fixture('py'), fixture('go')]); });

  it('resolves from-imports, package __init__ re-exports and module aliases in Python', async () => {
    const r = await py.references('auth.login');
    assert.deepEqual(at(r.results), [
      'app.py:1:23 import',
      'app.py:5:9 call',
      'shop/__init__.py:1:19 import',
      'shop/cart.py:5:20 call',
      'tests/test_auth.py:1:23 import',
      'tests/test_auth.py:5:5 call',
    ]);
    assert.ok(!r.results.some((h) => h.path === 'other.py'), "other.py's login() is its own");
    const session = at((await py.references('Session')).results);
    assert.ok(session.includes('app.py:6:26 other'), 'isinstance(s, Session) is a value use');
  });

  it('resolves Go package imports by module path and sees the package without imports', async () => {
    const r = await go.references('server.New');
    assert.deepEqual(at(r.results), ['main.go:6:14 call', 'server/validate.go:11:9 call']);
    assert.deepEqual(r.results.map((h) => h.proximity), ['imports', 'same-package']);
    assert.ok(!r.results.some((h) => h.path === 'tools/gen.go'));
    assert.deepEqual(at((await go.references('Server.Listen')).results), ['main.go:7:8 call']);
  });
});

describe('references: C# and Ruby types inside namespaces', () => {
  it('a C# class in a namespace, with a constructor and a partial half in another file, is referenced from other files', async () => {
    const root = makeWorkspace({
      'src/Orders/OrderService.cs': 'namespace Shop.Orders\n{\n    public partial class OrderService\n    {\n        public OrderService() { }\n    }\n}\n',
      'src/Orders/OrderService.Audit.cs': 'namespace Shop.Orders\n{\n    public partial class OrderService\n    {\n        public void Audit() { }\n    }\n}\n',
      'src/Api/Checkout.cs': 'using Shop.Orders;\n\nnamespace Shop.Api\n{\n    public class Checkout\n    {\n        private readonly OrderService _orders = new OrderService();\n    }\n}\n',
    });
    roots.push(root);
    const engine = testEngine(root);
    engines.push(engine);
    await engine.index();
    const r = await engine.references('OrderService');
    assert.equal(r.definition.qualifiedName, 'Shop.Orders.OrderService');
    assert.deepEqual(at(r.results).filter((h) => h.startsWith('src/Api/')), ['src/Api/Checkout.cs:7:26 type', 'src/Api/Checkout.cs:7:53 class']);
  });

  it('a C# class is referenced from its own namespace without a `using`, and from a `using` of it, not from a namesake\'s', async () => {
    const root = makeWorkspace({
      'src/Orders/OrderService.cs': 'namespace Shop.Orders\n{\n    public class OrderService\n    {\n    }\n}\n',
      'src/Orders/Refunds.cs': 'namespace Shop.Orders\n{\n    public class Refunds\n    {\n        private OrderService _orders;\n    }\n}\n',
      'src/Orders/Api/Endpoint.cs': 'namespace Shop.Orders.Api;\n\npublic class Endpoint\n{\n    private OrderService _orders;\n}\n',
      'src/Admin/Panel.cs': 'using Shop.Orders;\n\nnamespace Admin\n{\n    public class Panel\n    {\n        private OrderService _orders;\n    }\n}\n',
      'src/Legacy/OrderService.cs': 'namespace Legacy\n{\n    public class OrderService\n    {\n    }\n}\n',
      'src/Legacy/Report.cs': 'namespace Legacy\n{\n    public class Report\n    {\n        private OrderService _orders;\n    }\n}\n',
    });
    roots.push(root);
    const engine = testEngine(root);
    engines.push(engine);
    await engine.index();
    const r = await engine.references('Shop.Orders.OrderService');
    assert.equal(r.definition.path, 'src/Orders/OrderService.cs');
    assert.deepEqual(r.results.filter((h) => h.path !== r.definition.path).map((h) => `${h.path}:${h.line} ${h.proximity}`).sort(),
      ['src/Admin/Panel.cs:7 imports', 'src/Orders/Api/Endpoint.cs:5 same-package', 'src/Orders/Refunds.cs:5 same-package']);
  });

  it('a PHP interface is referenced from a file that imports it with `use`, laid out by PSR-4', async () => {
    const root = makeWorkspace({
      'src/Shop/IO/Printer.php': '<?php\nnamespace Shop\\IO;\n\ninterface Printer\n{\n}\n',
      'src/Shop/Report.php': '<?php\nnamespace Shop;\n\nuse Shop\\IO\\Printer;\n\nclass Report\n{\n    public function __construct(private Printer $printer) {}\n}\n',
    });
    roots.push(root);
    const engine = testEngine(root);
    engines.push(engine);
    await engine.index();
    const r = await engine.references('Printer');
    assert.equal(r.definition.path, 'src/Shop/IO/Printer.php');
    assert.deepEqual(at(r.results), ['src/Shop/Report.php:4:13 import', 'src/Shop/Report.php:8:41 type']);
  });

  it('a PHP group import `use A\\{B, C}` relates each name to its own file, not to a namesake elsewhere', async () => {
    const root = makeWorkspace({
      'src/Shop/IO/Printer.php': '<?php\nnamespace Shop\\IO;\n\ninterface Printer\n{\n}\n',
      'src/Shop/IO/Reader.php': '<?php\nnamespace Shop\\IO;\n\ninterface Reader\n{\n}\n',
      'src/Legacy/Printer.php': '<?php\nnamespace Legacy;\n\nclass Printer\n{\n}\n',
      'src/Shop/Report.php': '<?php\nnamespace Shop;\n\nuse Shop\\IO\\{Printer, Reader};\n\nclass Report\n{\n    public function __construct(private Printer $printer, private Reader $reader) {}\n}\n',
    });
    roots.push(root);
    const engine = testEngine(root);
    engines.push(engine);
    await engine.index();
    const r = await engine.references('Shop.IO.Printer');
    assert.equal(r.definition.path, 'src/Shop/IO/Printer.php');
    assert.deepEqual(at(r.results).filter((h) => h.startsWith('src/Shop/Report.php')), ['src/Shop/Report.php:4:14 import', 'src/Shop/Report.php:8:41 type']);
  });

  it('a Ruby class in a module is referenced from a file that requires it', async () => {
    const root = makeWorkspace({
      'lib/shop/order_service.rb': 'module Shop\n  class OrderService\n    def initialize; end\n  end\nend\n',
      'lib/shop/checkout.rb': "require_relative 'order_service'\n\nmodule Shop\n  class Checkout\n    def run\n      OrderService.new\n    end\n  end\nend\n",
    });
    roots.push(root);
    const engine = testEngine(root);
    engines.push(engine);
    await engine.index();
    const r = await engine.references('OrderService');
    assert.equal(r.definition.qualifiedName, 'Shop.OrderService');
    assert.deepEqual(at(r.results), ['lib/shop/checkout.rb:6:7 class']);
  });
});
