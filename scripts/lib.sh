# Shared by scripts/start and scripts/test: install what is missing, the same way on a fresh
# Debian machine, in CI and on a developer's box.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PNPM_VERSION="$(sed -n 's/.*"packageManager": *"pnpm@\([^"]*\)".*/\1/p' "$ROOT/package.json")"
export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1

say() { printf '[media-organizer] %s\n' "$*" >&2; }

is_root() { [ "$(id -u)" = 0 ]; }

APT_UPDATED=
apt_install() {
  if ! is_root; then
    say "missing: $*. Install them (on Debian: sudo apt-get install -y $*) and run this again."
    exit 1
  fi
  if [ -z "$APT_UPDATED" ]; then
    say "apt-get update"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
    APT_UPDATED=1
  fi
  say "apt-get install $*"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

ensure_node() {
  # 20.15: the API compresses its answers with zlib.crc32, new in that release.
  if ! command -v node >/dev/null || ! node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 15) ? 0 : 1)'; then
    say "Node.js 20.15 or newer is needed (https://nodejs.org or your distribution's nodejs package)."
    exit 1
  fi
}

ensure_pnpm() {
  if command -v pnpm >/dev/null && [ "$(pnpm --version 2>/dev/null | cut -d. -f1)" = 10 ]; then return; fi
  say "installing pnpm@$PNPM_VERSION"
  if ! npm install -g --silent "pnpm@$PNPM_VERSION" >/dev/null 2>&1; then
    # No rights for a global install: keep a private copy inside the checkout.
    npm install --silent --prefix "$ROOT/.tools" "pnpm@$PNPM_VERSION" >/dev/null
    export PATH="$ROOT/.tools/node_modules/.bin:$PATH"
  fi
}

ensure_deps() {
  (cd "$ROOT" && CI=true pnpm install --frozen-lockfile --prefer-offline --reporter=silent)
}

# Each argument is COMMAND:PACKAGE; COMMAND may be an absolute path, for a tool wanted at that path.
ensure_tools() {
  local missing=()
  for pair in "$@"; do
    local bin="${pair%%:*}" pkg="${pair##*:}"
    command -v "$bin" >/dev/null || missing+=("$pkg")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    mapfile -t missing < <(printf '%s\n' "${missing[@]}" | sort -u)
    apt_install "${missing[@]}"
  fi
}

# The web UI's address on this machine, as scripts/start prints it: under URL_BASE (a reverse proxy's
# prefix, which the API answers directly too), ending in one slash.
ui_address() { # port
  local base="${URL_BASE:-}"
  printf 'http://localhost:%s%s/\n' "$1" "${base%/}"
}

free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

redis_up() { # url
  node -e '
    const u = new URL(process.argv[1]);
    const s = require("net").connect(Number(u.port || 6379), u.hostname || "127.0.0.1");
    s.setTimeout(1000, () => process.exit(1));
    s.on("error", () => process.exit(1));
    s.on("connect", () => s.write("PING\r\n"));
    s.on("data", (d) => process.exit(/PONG|NOAUTH/.test(String(d)) ? 0 : 1));
  ' "$1"
}

wait_for_redis() { # url
  for _ in $(seq 1 50); do redis_up "$1" && return 0; sleep 0.1; done
  say "redis at $1 did not answer"
  return 1
}
