// Installs the dev mock (./mock) under Tauri's own IPC with `mockIPC`, so the
// page's `invoke`/`listen`/`Channel` calls run unchanged in a plain browser.
// main.ts imports this dynamically, only in dev without Tauri: production builds
// do not contain it.

import { mockIPC } from "@tauri-apps/api/mocks";
import { createMockBackend, mockInvoke } from "./mock";
import { parseMockFlags, sleep } from "./mock-common";

/** Streaming and page rendering pace themselves; other commands get a little latency
 *  so busy states show as they do against the real shell. */
const latency = (cmd: string) => (cmd === "ask" || cmd === "page_image" ? 0 : 60 + Math.random() * 120);

export function installMockBackend(search: string = location.search): void {
  const backend = createMockBackend(parseMockFlags(search));
  mockIPC(
    async (cmd, args) => {
      await sleep(latency(cmd));
      return mockInvoke(backend.handlers, cmd, args);
    },
    // emit() from @tauri-apps/api/event then reaches listen(), as events from the shell do
    { shouldMockEvents: true },
  );
  setInterval(backend.tick, 500);
  console.info("[pagewise] using the mock backend (plain browser, dev mode)");
}
