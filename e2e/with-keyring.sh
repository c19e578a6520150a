#!/usr/bin/env bash
# Runs a command beside a real Secret Service: gnome-keyring's daemon, unlocked, on the D-Bus
# session bus that dbus-run-session started. Its keyrings live in a temporary HOME, so the
# user's own keyring is never touched.
# Usage: dbus-run-session -- e2e/with-keyring.sh COMMAND [ARG...]
set -euo pipefail
keys="$(mktemp -d)"
runtime="$(mktemp -d)"
chmod 700 "$runtime"
daemon_pid=""
# Only the daemon started here is stopped: `--daemonize` prints nothing with only the secrets
# component, and a `kill` of an empty PID list would signal this whole process group.
cleanup() {
  if [ -n "$daemon_pid" ]; then kill "$daemon_pid" 2>/dev/null || true; fi
  rm -rf "$keys" "$runtime"
}
trap cleanup EXIT
# In the foreground (as a background job) so its PID is known. --unlock reads the new login
# keyring's password from stdin; a fresh keyring is made.
printf 'pagewise-test' | HOME="$keys" XDG_RUNTIME_DIR="$runtime" \
  gnome-keyring-daemon --foreground --unlock --components=secrets >/dev/null 2>&1 &
daemon_pid=$!
# Wait until the Secret Service owns its name on the bus (at most 10 s).
for _ in $(seq 1 100); do
  if dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
       org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q 'boolean true'; then
    break
  fi
  kill -0 "$daemon_pid" 2>/dev/null || { echo "with-keyring: gnome-keyring-daemon exited" >&2; exit 1; }
  sleep 0.1
done
"$@"
