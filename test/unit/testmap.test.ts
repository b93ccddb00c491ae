import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Engine } from '../../src/core/engine';
import { countTests, testFramework, testSubject } from '../../src/core/testmap/detect';
import { makeWorkspace, removeWorkspace, testEngine, writeFiles } from '../helpers/workspace';
import { copyFixture } from './graph-fixture';

test('frameworks are told apart by file name and place', () => {
  const cases: Record<string, string | undefined> = {
    'tests/test_auth.py': 'pytest', 'pkg/auth_test.py': 'pytest', 'tests/conftest.py': 'pytest', 'src/auth.py': undefined,
    'src/a.test.ts': 'jest', 'src/a.spec.jsx': 'jest', 'src/__tests__/a.js': 'jest', 'src/a.ts': undefined,
    'pkg/a_test.go': 'go_test', 'pkg/a.go': undefined,
    'src/test/java/x/AuthTest.java': 'junit', 'src/main/java/x/Auth.java': undefined, 'AuthTests.kt': 'junit',
    'AppTests/LoginTests.swift': 'xctest', 'App/Login.swift': undefined,
    'Shop.Tests/OrderServiceTests.cs': 'dotnet_test', 'Shop/OrderService.cs': undefined,
    'spec/models/order_spec.rb': 'rspec', 'test/test_order.rb': 'minitest', 'test/models/order_test.rb': 'minitest', 'app/models/order.rb': undefined,
    'tests/Unit/OrderServiceTest.php': 'phpunit', 'src/OrderService.php': undefined,
  };
  for (const [path, want] of Object.entries(cases)) assert.equal(testFramework(path), want, path);
});

test('tests are counted per framework; subjects are what the file is named after', () => {
  assert.equal(countTests('pytest', 'def test_a():\n    pass\nasync def test_b():\n    pass\ndef helper(): pass\n'), 2);
  assert.equal(countTests('jest', "describe('x', () => {\n  it('a', () => {});\n  test.skip('b', () => {});\n  it.each([1])('c', () => {});\n});\nconst fit = 1;\n"), 2);
  assert.equal(countTests('go_test', 'func TestA(t *testing.T) {}\nfunc helper() {}\nfunc TestB(t *testing.T) {}\n'), 2);
  assert.equal(countTests('junit', '@Test\nvoid a() {}\n@ParameterizedTest\nvoid b() {}\n'), 2);
  assert.equal(countTests('xctest', 'func testLogin() {}\nfunc setUp() {}\n'), 1);
  assert.equal(testSubject('tests/test_auth_service.py'), 'authservice');
  assert.equal(testSubject('src/auth-service.spec.ts'), 'authservice');
  assert.equal(testSubject('pkg/AuthServiceTests.swift'), 'authservice');
  assert.equal(countTests('dotnet_test', '[Fact]\npublic void A() {}\n[Theory]\n[InlineData(1)]\npublic void B(int x) {}\n[Test]\npublic void C() {}\n'), 3);
  assert.equal(countTests('rspec', "describe Order do\n  it 'totals' do\n  end\n  it { is_expected.to be_valid }\n  let(:item) { 1 }\nend\n"), 2);
  assert.equal(countTests('minitest', "class OrderTest < Minitest::Test\n  def test_total\n  end\n  test 'ships' do\n  end\n  def helper; end\nend\n"), 2);
  assert.equal(countTests('phpunit', 'public function testTotal(): void {}\n/** @test */\npublic function ships() {}\nprivate function helper() {}\n'), 2);
  assert.equal(testSubject('spec/order_service_spec.rb'), 'orderservice');
  assert.equal(testSubject('tests/OrderServiceTest.php'), 'orderservice');
  assert.equal(testSubject('Shop.Tests/OrderServiceTests.cs'), 'orderservice');
});

let root: string;
let engine: Engine;
before(async () => {
  root = copyFixture('graph-project');
  // Four more test files for billing: by name, by folder, by import.
  writeFiles(root, {
    'tests/test_billing.py': 'def test_one():\n    pass\n',
    'tests/billing/test_numbers.py': 'def test_two():\n    pass\n',
    'tests/billing/test_more.py': 'def test_three():\n    pass\ndef test_four():\n    pass\n',
    'tests/test_misc.py': 'from src.billing.api import router\n\ndef test_five():\n    pass\n',
  });
  engine = testEngine(root);
  await engine.index();
});
after(async () => {
  await engine.dispose();
  removeWorkspace(root);
});

test('mapping by import, name and folder; coverage high above three files', async () => {
  const tests = (await engine.contextBundle(['billing'], { depth: 0 })).bundle.tests!;
  assert.deepEqual(tests.test_files, ['tests/billing/test_more.py', 'tests/billing/test_numbers.py', 'tests/test_billing.py', 'tests/test_invoices.py', 'tests/test_misc.py']);
  assert.equal(tests.test_count, 7);
  assert.equal(tests.framework, 'pytest');
  assert.deepEqual(tests.frameworks, ['pytest']);
  assert.equal(tests.coverage_estimate, 'high');
});

test('other frameworks in the fixture map to their nodes; a node without tests is low', async () => {
  const t = async (id: string) => (await engine.contextBundle([id], { depth: 0 })).bundle.tests;
  assert.deepEqual(await t('api-gateway'), { framework: 'jest', frameworks: ['jest'], test_files: ['gateway/src/server.test.ts'], test_count: 2, coverage_estimate: 'medium' });
  assert.deepEqual(await t('notifier'), { framework: 'go_test', frameworks: ['go_test'], test_files: ['notifier/main_test.go'], test_count: 2, coverage_estimate: 'medium' });
  assert.deepEqual(await t('payments'), { framework: 'junit', frameworks: ['junit'], test_files: ['payments/src/test/java/com/shop/PaymentControllerTest.java'], test_count: 1, coverage_estimate: 'medium' });
  assert.deepEqual(await t('auth'), { framework: 'pytest', frameworks: [], test_files: [], test_count: 0, coverage_estimate: 'low' });
});

test('every framework a node\'s tests use is labelled, XCTest included; `framework` stays the one with most files', async () => {
  const ws = makeWorkspace({
    '.context-oracle/graph/g.yml': 'nodes:\n  - { ref_id: auth, kind: domain, source: src/auth/ }\n',
    'src/auth/login.py': 'def login():\n    pass\n',
    'tests/test_auth.py': 'def test_login():\n    pass\n',
    'tests/auth/test_tokens.py': 'def test_tokens():\n    pass\n',
    'ios/AppTests/AuthTests.swift': 'import XCTest\n\nfinal class AuthTests: XCTestCase {\n    func testLogin() {}\n    func testLogout() {}\n}\n',
  });
  const e = testEngine(ws);
  try {
    await e.index();
    const tests = (await e.contextBundle(['auth'], { depth: 0 })).bundle.tests!;
    assert.deepEqual(tests, {
      framework: 'pytest', frameworks: ['pytest', 'xctest'], test_files: ['ios/AppTests/AuthTests.swift', 'tests/auth/test_tokens.py', 'tests/test_auth.py'],
      test_count: 4, coverage_estimate: 'medium',
    });
  } finally {
    await e.dispose();
    removeWorkspace(ws);
  }
});
