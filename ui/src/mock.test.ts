import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { afterEach, describe, expect, it, vi } from "vitest";
import * as api from "./api";
import { COMMANDS } from "./bindings/contract";
import { createMockBackend, mockInvoke, type MockEmit } from "./mock";
import type { MockFlag } from "./mock-common";
import type { Answer, AskStreamEvent } from "./types";

function install(flags: MockFlag[] = [], emit?: MockEmit) {
  const backend = createMockBackend(new Set(flags), emit);
  mockIPC((cmd, args) => mockInvoke(backend.handlers, cmd, args), { shouldMockEvents: true });
  return backend;
}

/** Asks through the api with fake timers run out; the events streamed and the outcome. */
async function askAll(question: string, before?: () => Promise<unknown>) {
  const events: AskStreamEvent[] = [];
  const result = api.ask(question, null, [], (e) => events.push(e)).then(
    (answer) => ({ answer, error: null }),
    (error: unknown) => ({ answer: null as Answer | null, error }),
  );
  await before?.();
  await vi.runAllTimersAsync();
  return { events, ...(await result) };
}

afterEach(() => {
  clearMocks();
  vi.useRealTimers();
});

describe("mock backend", () => {
  it("answers exactly the commands of the contract", () => {
    const names = Object.keys(createMockBackend().handlers).sort();
    expect(names).toEqual([...COMMANDS].sort());
  });

  it("rejects a command that is not in the contract as an AppError", () => {
    const { handlers } = createMockBackend();
    expect(() => mockInvoke(handlers, "new_chat", {})).toThrow(expect.objectContaining({ kind: "failed" }));
  });

  it("streams steps numbered from 1 with the backend's tools, evidence before tokens", async () => {
    vi.useFakeTimers();
    install();
    const { events, answer } = await askAll("What seasonal performance factor did the study measure?");
    const steps = events.flatMap((e) => (e.kind === "step" ? [e.step] : []));
    expect(steps.map((s) => s.index)).toEqual([1, 2, 3]);
    expect(steps.map((s) => s.tool)).toEqual(["search_docs", "read_page", "read_page"]);
    const kinds = events.map((e) => e.kind);
    expect(kinds.indexOf("evidence")).toBeLessThan(kinds.indexOf("token"));
    expect(answer!.steps.map((s) => s.index)).toEqual([1, 2, 3]);
  });

  it("labels evidence Doc{handle}_p{page} and cites those labels", async () => {
    vi.useFakeTimers();
    install();
    const { answer } = await askAll("What seasonal performance factor did the study measure?");
    const a = answer!;
    expect(a.sources.map((p) => p.label)).toEqual(["Doc1_p14", "Doc2_p1", "Doc3_p7"]);
    for (const p of a.sources) expect(p.label).toBe(`Doc${p.doc_handle}_p${p.page}`);
    const cited = a.sentences.flatMap((s) => s.citations);
    expect(cited.length).toBeGreaterThan(0);
    for (const c of cited) {
      const page = a.sources.find((p) => p.label === c.label);
      expect(page).toMatchObject({ doc_id: c.doc_id, page: c.page });
    }
  });

  it("abstains with no sentences and the nearest passages cited", async () => {
    vi.useFakeTimers();
    install();
    const { answer, events } = await askAll("What will the weather be tomorrow?");
    expect(answer).toMatchObject({ abstained: true, mode: "abstained", sentences: [] });
    expect(answer!.citations.map((c) => c.label)).toEqual(["Doc1_p1", "Doc2_p7"]);
    expect(events.some((e) => e.kind === "token")).toBe(false);
  });

  it("rejects with kind stopped when stopped before any token, and stores nothing", async () => {
    vi.useFakeTimers();
    install();
    const before = await api.listConversations();
    const { error } = await askAll("How large should the buffer tank be?", () => api.stopAnswer());
    expect(api.isStopped(error)).toBe(true);
    expect(error).toBeInstanceOf(api.CommandError);
    expect(await api.listConversations()).toEqual(before);
  });

  it("stores an answer as the next turn of a new conversation", async () => {
    vi.useFakeTimers();
    install(["empty"]);
    const { answer } = await askAll("What seasonal performance factor did the study measure?");
    expect(answer).toMatchObject({ turn: 0 });
    const turns = await api.openConversation(answer!.conversation_id!);
    expect(turns.map((t) => t.answer?.turn)).toEqual([0]);
  });

  it("?mock=fail rejects ask with kind failed", async () => {
    vi.useFakeTimers();
    install(["fail"]);
    const { error } = await askAll("anything");
    expect(api.errorKind(error)).toBe("failed");
    expect(api.isStopped(error)).toBe(false);
  });

  it("reports library changes as library-status events", async () => {
    const emitted: unknown[] = [];
    install([], (event, payload) => emitted.push([event, payload]));
    const added = await api.addFolderDialog();
    expect(added).toHaveLength(1);
    expect(emitted).toHaveLength(1);
    expect(emitted[0]).toEqual(["library-status", expect.objectContaining({ busy: true })]);
  });

  it("removes folders by id, never by path", async () => {
    install([]);
    const [folder] = (await api.libraryStatus()).folders;
    await expect(api.removeFolder(folder.path)).rejects.toMatchObject({ kind: "not_found" });
    await api.removeFolder(folder.id);
    expect((await api.libraryStatus()).folders.some((f) => f.id === folder.id)).toBe(false);
  });
});
