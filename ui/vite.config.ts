/// <reference types="vitest/config" />
import { defineConfig } from "vite";

// Tauri dev: the shell loads http://localhost:1420 (devUrl) and the built
// ui/dist (frontendDist). Relative base so dist works from any origin.
// (no @types/node dependency just for this one line)
declare const process: { env: Record<string, string | undefined> };
const host = process.env.TAURI_DEV_HOST;

export default defineConfig({
  base: "./",
  clearScreen: false,
  envPrefix: ["VITE_", "TAURI_ENV_"],
  server: {
    port: 1420,
    strictPort: true,
    host: host || false,
    hmr: host ? { protocol: "ws", host, port: 1421 } : undefined,
    watch: { ignored: ["**/src-tauri/**"] },
  },
  // The dev mock's dependency is reached only through a dynamic import; listing it
  // spares the first `npm run dev` page load a reload when Vite finds it late.
  optimizeDeps: { include: ["@tauri-apps/api/mocks"] },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // WebKitGTK (Linux) / WKWebView (macOS): Safari 15 feature level.
    target: "safari15",
    // No source maps (and never eval-based ones) in the shipped bundle.
    sourcemap: false,
  },
  test: {
    environment: "node",
    include: ["src/**/*.test.ts"],
    setupFiles: ["src/test-setup.ts"],
  },
});
