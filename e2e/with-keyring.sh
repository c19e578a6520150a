#!/usr/bin/env bash
# Runs a command beside a real Secret Service: gnome-keyring's daemon, unlocked, on the D-Bus
# session bus that dbus-run-session started. Its keyrings live in a temporary HOME, so the
# user's own keyring is never touched.
# Usage: dbus-run-session -- e2e/with-keyring.sh COMMAND [ARG...]
set -euo pipefail
keys="$(mktemp -d)"
runtime="$(mktemp -d)"
chmod 700 "$runtime"
trap 'kill "${daemon_pid:-0}" 2>/dev/null || true; rm -rf "$keys" "$runtime"' EXIT
# --unlock reads the new login keyring's password from stdin; a fresh keyring is made.
out="$(printf 'pagewise-test' | HOME="$keys" XDG_RUNTIME_DIR="$runtime" gnome-keyring-daemon --daemonize --unlock --components=secrets)"
daemon_pid="$(sed -n 's/^GNOME_KEYRING_PID=//p' <<<"$out")"
sleep 1
"$@"
