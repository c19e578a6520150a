#!/usr/bin/env bash
# The package as a new user gets it: builds the .deb with scripts/package.sh, unpacks it into
# a fresh root, and runs it from there with an empty HOME, none of this checkout's variables,
# and no network (a network namespace holding only loopback). The packaged CLI indexes the
# bundled sample and answers with a citation; then the packaged app, started under Xvfb
# through tauri-driver, indexes the sample on its first start and answers a question whose
# citation opens the page.
#
# Usage: e2e/package.sh [scripts/package.sh arguments, e.g. --debug --bundles deb]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# PAGEWISE_PACKAGE_DEB names a package built earlier (to test it again without rebuilding).
deb="${PAGEWISE_PACKAGE_DEB:-$("$root/scripts/package.sh" "$@" | tail -1)}"
[ -f "$deb" ] || { echo "package test: scripts/package.sh printed no package ($deb)" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
artifacts="${PAGEWISE_E2E_ARTIFACTS:-$root/target/e2e-artifacts}"
mkdir -p "$artifacts"
install_root="$work/root"
dpkg-deb -x "$deb" "$install_root"
lib="$install_root/usr/lib/Pagewise"
echo "package test: $(basename "$deb"), $(du -m "$deb" | cut -f1) MB packed, $(du -sm "$install_root" | cut -f1) MB installed"
for need in usr/bin/pagewise-app usr/bin/pagewise usr/lib/Pagewise/sample usr/lib/Pagewise/models/pdfium/libpdfium.so \
            usr/lib/Pagewise/models/all-MiniLM-L6-v2/model.safetensors; do
  [ -e "$install_root/$need" ] || { echo "package test: the package lacks /$need" >&2; exit 1; }
done
ls "$lib/models/llm/"*.gguf >/dev/null || { echo "package test: the package carries no chat model" >&2; exit 1; }
dpkg-deb -f "$deb" Depends

home="$work/home"
mkdir -p "$home"
driver="${TAURI_DRIVER:-$(command -v tauri-driver || echo "$HOME/.cargo/bin/tauri-driver")}"
cp "$driver" "$work/tauri-driver"
cp "$root/e2e/package.test.mjs" "$root/e2e/webdriver.mjs" "$work/"

# Everything below runs as a new user would run it: a clean environment, no checkout, no
# network. `unshare -rn` gives a user and network namespace with only loopback (down until
# raised), so any attempt to reach the internet fails.
export -n CARGO_TARGET_DIR PAGEWISE_MODELS_DIR PAGEWISE_DATA_DIR PAGEWISE_CONFIG_DIR 2>/dev/null || true
rc=0
unshare -rn env -i HOME="$home" PATH=/usr/bin:/bin:/usr/sbin:/sbin LANG=C.UTF-8 NO_AT_BRIDGE=1 \
  PKG_ROOT="$install_root" WORK="$work" ARTIFACTS="$artifacts" bash -c '
  set -euo pipefail
  ip link set lo up
  cd "$WORK"
  if timeout 3 bash -c "echo > /dev/tcp/151.101.2.132/443" 2>/dev/null; then echo "package test: the network is reachable" >&2; exit 1; fi
  cli="$PKG_ROOT/usr/bin/pagewise"
  "$cli" index --data-dir "$HOME/cli-data" "$PKG_ROOT/usr/lib/Pagewise/sample" | tail -2
  "$cli" ask --data-dir "$HOME/cli-data" --json "when does the postgres upgrade have to be done by" > "$WORK/cli-answer.json"
  python3 - "$WORK/cli-answer.json" <<EOF
import json, sys
a = json.load(open(sys.argv[1]))
assert not a["abstained"], a
assert a["citations"], a
assert a["model"].endswith(".gguf"), a["model"]
print("package test: the packaged CLI answered with", len(a["citations"]), "citations, model", a["model"])
EOF
  xvfb-run -a -s "-screen 0 1280x900x24" bash -c "
    ./tauri-driver --port 4444 > \"\$ARTIFACTS/package-tauri-driver.log\" 2>&1 &
    drv=\$!
    for _ in \$(seq 1 50); do (echo > /dev/tcp/127.0.0.1/4444) 2>/dev/null && break; sleep 0.1; done
    PAGEWISE_E2E_APP=\"\$PKG_ROOT/usr/bin/pagewise-app\" PAGEWISE_E2E_ARTIFACTS=\"\$ARTIFACTS\" node --test --test-concurrency=1 package.test.mjs
    rc=\$?
    kill \$drv 2>/dev/null
    exit \$rc
  "
' || rc=$?
if [ "$rc" = 0 ]; then echo "package test: passed"; else echo "package test: FAILED" >&2; fi
exit $rc
