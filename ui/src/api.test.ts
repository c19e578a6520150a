import { emit } from "@tauri-apps/api/event";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as api from "./api";
import { CommandError, errorText, isStopped, normalizeAnswer, toCommandError } from "./api";
import { createMockBackend, mockInvoke, type MockHandlers } from "./mock";
import type { Answer, AppError, LibraryStatus } from "./types";

/** The mock backend under Tauri's IPC, with some handlers replaced. */
function install(over: Partial<MockHandlers> = {}) {
  const handlers = { ...createMockBackend(new Set(), () => undefined).handlers, ...over };
  mockIPC((cmd, args) => mockInvoke(handlers, cmd, args), { shouldMockEvents: true });
  return handlers;
}

const thrown = (e: AppError) => () => {
  throw e;
};

afterEach(() => clearMocks());

describe("normalizeAnswer", () => {
  it("returns null for a missing answer", () => {
    expect(normalizeAnswer(null)).toBeNull();
    expect(normalizeAnswer(undefined)).toBeNull();
  });

  it("fills arrays missing from older stored answers", () => {
    const a = normalizeAnswer({ question: "q", answer: "x", abstained: false } as unknown as Answer)!;
    expect(a.sentences).toEqual([]);
    expect(a.sources).toEqual([]);
    expect(a.citations).toEqual([]);
    expect(a.steps).toEqual([]);
    expect(a.conversation_id).toBeNull();
    expect(a.timings.total_ms).toBe(0);
    expect(a.timings.first_token_ms).toBeNull();
    expect(a.timings.prompt_tokens).toBe(0);
    expect(a.turn).toBeNull();
    expect(a.signals).toBeNull();
    expect(a.attribution.sentences).toBe(0);
    expect(a.notices).toEqual([]);
  });

  it("keeps turn and partial timings, numbers steps without an index from 1", () => {
    const a = normalizeAnswer({
      question: "q",
      answer: "x",
      turn: 2,
      timings: { total_ms: 5, first_token_ms: 1 },
      steps: [{ tool: "search_docs", input: null, observation: "", ms: 1 }],
    } as unknown as Answer)!;
    expect(a.turn).toBe(2);
    expect(a.timings.total_ms).toBe(5);
    expect(a.timings.first_token_ms).toBe(1);
    expect(a.timings.generated_tokens).toBe(0);
    expect(a.steps[0].index).toBe(1);
  });
});

describe("errors", () => {
  it("isStopped goes by kind, never by message", () => {
    expect(isStopped({ kind: "stopped", message: "interrupted" })).toBe(true);
    expect(isStopped(new CommandError("stopped", "anything"))).toBe(true);
    expect(isStopped({ kind: "failed", message: "stopped" })).toBe(false);
    expect(isStopped("stopped")).toBe(false);
    expect(isStopped(new Error("stopped"))).toBe(false);
  });

  it("keeps an AppError's kind and makes anything else kind failed", () => {
    expect(toCommandError({ kind: "not_found", message: "Conversation 7 not found" })).toMatchObject({
      kind: "not_found",
      message: "Conversation 7 not found",
    });
    expect(toCommandError("command ask not found")).toMatchObject({ kind: "failed", message: "command ask not found" });
    expect(toCommandError(new TypeError("boom"))).toMatchObject({ kind: "failed", message: "boom" });
    expect(toCommandError({ kind: "exploded", message: "m" })).toMatchObject({ kind: "failed", message: "m" });
    expect(toCommandError({ kind: "stopped" })).toMatchObject({ kind: "failed" });
  });

  it("errorText shows the message of anything rejected", () => {
    expect(errorText("Chat model not found")).toBe("Chat model not found");
    expect(errorText(new Error("boom"))).toBe("boom");
    expect(errorText({ kind: "failed", message: "m" })).toBe("m");
  });
});

describe("commands through Tauri's IPC (mocked)", () => {
  it("resolve with what the backend returns", async () => {
    const handlers = install();
    expect(await api.libraryStatus()).toEqual(await handlers.library_status({}));
    expect(await api.listDocuments()).toHaveLength(6);
    expect(await api.setSettings(await api.getSettings())).toBeNull();
    expect(await api.call("suggested_questions")).toEqual(await handlers.suggested_questions({}));
  });

  it("send the arguments under the contract's names", async () => {
    const seen = vi.fn(() => "# md");
    install({ export_answer: seen });
    await api.exportAnswer(4, 2, "csv");
    expect(seen).toHaveBeenCalledWith({ conversationId: 4, turn: 2, format: "csv" });
  });

  it("reject with a CommandError carrying the backend's kind", async () => {
    install();
    const e = await api.viewPage(999, 1, null, null).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(CommandError);
    expect(e).toBeInstanceOf(Error);
    expect(e).toMatchObject({ kind: "not_found" });
  });

  it("a stopped rejection is stopped; a failure that says 'stopped' is not", async () => {
    install({ stop_answer: thrown({ kind: "stopped", message: "interrupted" }) });
    expect(isStopped(await api.stopAnswer().catch((x: unknown) => x))).toBe(true);
    install({ stop_answer: thrown({ kind: "failed", message: "stopped" }) });
    const e = await api.stopAnswer().catch((x: unknown) => x);
    expect(isStopped(e)).toBe(false);
    expect(e).toMatchObject({ kind: "failed", message: "stopped" });
  });

  it("a string rejection (Tauri's own errors) is kind failed", async () => {
    mockIPC(() => Promise.reject("command library_status not found"));
    await expect(api.libraryStatus()).rejects.toMatchObject({ kind: "failed", message: "command library_status not found" });
  });

  it("page images arrive as a PNG blob whatever form the bytes take", async () => {
    for (const bytes of [new Uint8Array([137, 80]).buffer, new Uint8Array([137, 80]), [137, 80]]) {
      install({ page_image: () => bytes as ArrayBuffer });
      const blob = await api.pageImage(1, 1, 800.4);
      expect(blob.type).toBe("image/png");
      expect(blob.size).toBe(2);
    }
  });
});

describe("events through Tauri's IPC (mocked)", () => {
  it("emit reaches the api's listeners with the payload, until unlistened", async () => {
    install();
    const statuses: LibraryStatus[] = [];
    const unlisten = await api.onLibraryStatus((s) => statuses.push(s));
    const status = await api.libraryStatus();
    await emit("library-status", status);
    expect(statuses).toEqual([status]);
    await unlisten();
    await emit("library-status", status);
    expect(statuses).toHaveLength(1);
  });

  it("files-dropped and app-error reach their handlers", async () => {
    install();
    const dropped = vi.fn();
    const failed = vi.fn();
    await api.onFilesDropped(dropped);
    await api.onAppError(failed);
    await emit("files-dropped", ["/home/ada/new.pdf"]);
    await emit("app-error", { kind: "invalid_input", message: "/nope does not exist" });
    expect(dropped).toHaveBeenCalledWith(["/home/ada/new.pdf"]);
    expect(failed).toHaveBeenCalledWith({ kind: "invalid_input", message: "/nope does not exist" });
  });

  it("the mock's own library events reach the api's listener", async () => {
    const backend = createMockBackend(); // emits with Tauri's emit
    mockIPC((cmd, args) => mockInvoke(backend.handlers, cmd, args), { shouldMockEvents: true });
    const statuses: LibraryStatus[] = [];
    await api.onLibraryStatus((s) => statuses.push(s));
    await api.addFolderDialog();
    await vi.waitFor(() => expect(statuses[statuses.length - 1]?.folders.some((f) => f.path.includes("Papers"))).toBe(true));
  });
});
