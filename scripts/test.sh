#!/usr/bin/env bash
# The project's test command (npm test): typecheck, boundary lint, build, unit/golden/e2e tests in plain Node, then
# integration tests inside a real VS Code (code-server + chromium; see test/integration/README.md). The stress tests
# (test/stress: minutes of random SIGKILLs) run apart, in `npm run test:stress`; .ci/run runs both.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== typecheck"; npx tsc -p tsconfig.json --noEmit; npx tsc -p src/core/tsconfig.json --noEmit; npx tsc -p webview-ui/tsconfig.json --noEmit
echo "== lint (layer boundaries)"; node scripts/check-boundaries.mjs
echo "== build"; node esbuild.mjs; node esbuild.mjs tests
echo "== unit, golden and e2e tests"
node --test --test-reporter=spec out/test/unit/ out/test/e2e/
if [ "${SKIP_INTEGRATION:-0}" = 1 ] && [ "${CI:-}" = true ]; then
  echo "== SKIP_INTEGRATION=1 is ignored because CI=true: CI always runs the integration tests"
fi
if [ "${SKIP_INTEGRATION:-0}" = 1 ] && [ "${CI:-}" != true ]; then
  echo "== integration tests SKIPPED: SKIP_INTEGRATION=1 was set (they need code-server and chromium; .ci/run installs them)"
else
  echo "== integration tests in a real VS Code"; node test/integration/run.mjs
fi
