// Vitest runs in node. Tauri's mockIPC and the event/IPC modules only need a
// `window` that holds `__TAURI_INTERNALS__` and `crypto`; node's global object
// serves, so no DOM package is needed.
const g = globalThis as { window?: unknown };
g.window ??= globalThis;
