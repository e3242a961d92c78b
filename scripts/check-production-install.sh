#!/usr/bin/env bash
# `npm run check:production-install`: proves a production install on a clean copy of the committed
# HEAD, as an operator ships it: `npm ci && npm run build && npm prune --omit=dev`, then
# `NODE_ENV=production npx finance serve` with the server secrets on an empty SQLite database; it
# fetches /health, /openapi.json and /docs, checks the database holds no company and that every
# stdout line is JSON, stops the server; then the same after `npm ci --omit=dev` over the built
# files. It prints the production tree's size. The installs link the checkout's own tree (and native
# addon) when its lockfile is the same (PRODUCTION_INSTALL_FRESH=1: fresh installs that compile it).
# With --reuse-build (CI, after `npm run check:static`'s build:check proved generated/ is what the
# contract builds to), the checkout's own dist/ and docs pages are copied rather than built again when
# the checkout is HEAD's and they are newer than their sources; whatever is not is built here.
# Separate from `npm run check` (fresh installs and a build take minutes); CI runs it as its own step.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
reuse_build=0
[ "${1:-}" != --reuse-build ] || reuse_build=1
work="$(mktemp -d "${TMPDIR:-/tmp}/production-install-XXXXXX")"
server_pid=""
install_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
  if [ -n "$install_pid" ]; then kill "$install_pid" 2>/dev/null || true; wait "$install_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

git clone --quiet --no-checkout "$root" "$work/app"
git -C "$work/app" checkout --quiet --detach "$(git -C "$root" rev-parse HEAD)"
cd "$work/app"
linked=0
if [ "${PRODUCTION_INSTALL_FRESH:-}" != 1 ] && [ -d "$root/node_modules/.bin" ] && cmp -s "$root/package-lock.json" package-lock.json; then
  # The same lockfile is installed in the checkout (CI's `npm ci` a moment ago): hard-link its tree
  # rather than download and build it again (prune unlinks what it removes). PRODUCTION_INSTALL_FRESH=1 runs `npm ci`.
  linked=1
  cp -al "$root/node_modules" node_modules
  rm -rf node_modules/.vite node_modules/.cache
  # npm rewrites its hidden lockfile in place (the prune below does): a copy of its own, not a link
  # to the checkout's, which would then describe the pruned tree.
  [ ! -e node_modules/.package-lock.json ] || cp --remove-destination "$root/node_modules/.package-lock.json" node_modules/
  # The client's dist/ too, as that `npm ci` built it (its `prepare`), when the checkout's client is
  # HEAD's and dist/ is newer than its sources; otherwise built here.
  stamp="$root/client/dist/cjs/package.json"
  if [ -z "$(git -C "$root" status --porcelain -- client)" ] && [ -e "$stamp" ] &&
    [ -z "$(find "$root/client" -maxdepth 2 \( -name dist -o -name node_modules \) -prune -o -newer "$stamp" -type f -print)" ]; then
    cp -a "$root/client/dist" client/dist
  else
    npm run build:client --silent
  fi
else
  npm ci --no-audit --no-fund --loglevel=error
fi
# `npm run build` is build:contract, build:server and build:docs. Reused (--reuse-build): the committed
# generated/ (build:check compared it with a fresh build), and the checkout's dist/ and docs pages,
# first rebuilt there where a source is newer (as the test run's global setup does), then copied.
if [ "$linked" = 1 ] && [ "$reuse_build" = 1 ] && [ -z "$(git -C "$root" status --porcelain)" ]; then
  (cd "$root" && npm run --silent build:server -- --if-stale && npm run --silent build:docs -- --if-stale)
  cp -a "$root/dist" dist
  mkdir -p generated/docs && cp -a "$root/generated/docs/." generated/docs/
else
  npm run build
fi

# A target that only installs the runtime dependencies over the built files: a copy of the built
# tree without node_modules, installed in the background while the pruned tree below is checked
# (the install is mostly waiting on the disk). Where the checkout's tree was linked above,
# better-sqlite3's addon is linked from it too rather than compiled a second time (~1 min: its
# prebuilt binaries are not reachable here); PRODUCTION_INSTALL_FRESH=1 compiles it.
target="$work/omit-dev"
mkdir "$target"
tar --exclude=./node_modules --exclude=./client/node_modules -cf - . | tar -xf - -C "$target"
(
  cd "$target"
  if [ "$linked" = 1 ]; then
    npm ci --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error
    cp -al "$root/node_modules/better-sqlite3/build" node_modules/better-sqlite3/build
  else
    npm ci --omit=dev --no-audit --no-fund --loglevel=error
  fi
) >"$work/omit-dev.log" 2>&1 &
install_pid=$!

npm prune --omit=dev --no-audit --no-fund --loglevel=error
echo "production tree: $(du -sm node_modules | cut -f1) MB in node_modules, $(( $(npm ls --omit=dev --all --parseable 2>/dev/null | wc -l) - 1 )) packages (npm ls --omit=dev --all)"

# Starts a production server on an empty database with fresh secrets and checks what it serves and logs.
check_server() {
  local label="$1" db="$work/prod-$1.sqlite"
  port="$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
  secrets="$(node bin/finance.js secrets generate)"
  env $secrets NODE_ENV=production LOG_LEVEL=info node bin/finance.js serve --db "$db" --port "$port" \
    >"$work/stdout" 2>"$work/stderr" &
  server_pid=$!
  # Up to 60 s: CI runs this check beside the test suite, at a lower priority.
  for _ in $(seq 1 300); do
    if curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1; then break; fi
    sleep 0.2
  done
  fail() {
    echo "production install: $1" >&2
    echo "--- stdout" >&2; cat "$work/stdout" >&2
    echo "--- stderr" >&2; cat "$work/stderr" >&2
    exit 1
  }
  curl -fsS "http://127.0.0.1:$port/openapi.json" | node -e "let s='';process.stdin.on('data',c=>s+=c).on('end',()=>{const b=JSON.parse(s);if(!b.openapi||Object.keys(b.paths).some(p=>p.startsWith('/sandbox/')))process.exit(1)})" \
    || fail "/openapi.json is not the production contract"
  curl -fsS "http://127.0.0.1:$port/docs" -o "$work/docs.html" || fail "/docs does not answer"
  grep -q '/statements/v1/banking' "$work/docs.html" || fail "/docs does not serve the reference page"
  kill "$server_pid"; wait "$server_pid" || true; server_pid=""
  companies="$(node bin/finance.js company list --db "$db")"
  [ "$companies" = "no companies" ] || fail "the production database holds a company: $companies"
  while IFS= read -r line; do
    node -e 'JSON.parse(process.argv[1])' "$line" 2>/dev/null || fail "a stdout line is not JSON: $line"
  done <"$work/stdout"
  [ ! -s "$work/stderr" ] || fail "the server wrote to stderr"
  for name in CURSOR_SECRET URL_SIGNING_SECRET PAN_ENCRYPTION_KEY CVV_KEY IDEMPOTENCY_ENCRYPTION_KEY; do
    value="$(printf '%s\n' $secrets | sed -n "s/^$name=//p")"
    ! grep -q "$value" "$work/stdout" || fail "$name appears in the log"
  done

  echo "production install ($label): served /openapi.json and /docs from an empty database, JSON logs, no secret logged"
}

check_server pruned
# `npm start` runs the built server as it is: nothing to build, so it works without the dev tools.
npm start --silent -- --help >/dev/null || { echo "production install: npm start fails after npm prune --omit=dev" >&2; exit 1; }

wait "$install_pid" || { echo "production install: npm ci --omit=dev failed:" >&2; cat "$work/omit-dev.log" >&2; install_pid=""; exit 1; }
install_pid=""
cd "$target"
echo "after npm ci --omit=dev: $(du -sm node_modules | cut -f1) MB in node_modules"
check_server omit-dev
