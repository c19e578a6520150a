// Browser smoke test against the dev mock backend (not part of `npm test`).
//
//   npm run dev &            # serves http://localhost:1420 with the mock
//   npm run smoke            # needs a chromium/chrome binary (CHROME=...)
//
// Drives headless Chromium over the DevTools protocol and checks the main
// flows through the stable data-testid hooks. Node 20 needs
// --experimental-websocket (the npm script passes it).

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const BASE = process.env.BASE_URL ?? "http://localhost:1420/";
const SHOTS = process.env.SMOKE_SHOTS; // optional folder for PNG screenshots
const CHROME = process.env.CHROME ?? "chromium";
const PORT = 9333;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const profile = mkdtempSync(join(tmpdir(), "pw-smoke-"));
const chrome = spawn(
  CHROME,
  [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    `--user-data-dir=${profile}`,
    `--remote-debugging-port=${PORT}`,
    "--window-size=1280,860",
    "about:blank",
  ],
  { stdio: "ignore" },
);

let ws;
let nextId = 1;
const pending = new Map();

async function connect() {
  for (let i = 0; i < 50; i++) {
    try {
      const list = await (await fetch(`http://127.0.0.1:${PORT}/json/list`)).json();
      const page = list.find((t) => t.type === "page");
      if (page) {
        ws = new WebSocket(page.webSocketDebuggerUrl);
        await new Promise((res, rej) => {
          ws.onopen = res;
          ws.onerror = rej;
        });
        ws.onmessage = (m) => {
          const msg = JSON.parse(m.data);
          if (msg.id && pending.has(msg.id)) {
            const { res, rej } = pending.get(msg.id);
            pending.delete(msg.id);
            msg.error ? rej(new Error(msg.error.message)) : res(msg.result);
          }
        };
        return;
      }
    } catch {
      /* not up yet */
    }
    await sleep(200);
  }
  throw new Error("could not connect to chromium");
}

function send(method, params = {}) {
  const id = nextId++;
  ws.send(JSON.stringify({ id, method, params }));
  return new Promise((res, rej) => pending.set(id, { res, rej }));
}

async function evaluate(expr) {
  const r = await send("Runtime.evaluate", { expression: expr, awaitPromise: true, returnByValue: true });
  if (r.exceptionDetails) throw new Error(r.exceptionDetails.exception?.description ?? r.exceptionDetails.text);
  return r.result.value;
}

const q = (sel) => `document.querySelector(${JSON.stringify(sel)})`;
const qa = (sel) => `Array.from(document.querySelectorAll(${JSON.stringify(sel)}))`;
const tid = (t) => `[data-testid="${t}"]`;

async function waitFor(expr, what, timeout = 8000) {
  const t0 = Date.now();
  while (Date.now() - t0 < timeout) {
    if (await evaluate(`!!(${expr})`)) return;
    await sleep(80);
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function click(sel) {
  await waitFor(q(sel), sel);
  await evaluate(`${q(sel)}.click()`);
}

async function key(k, { ctrl = false, shift = false, code, keyCode } = {}) {
  const modifiers = (ctrl ? 2 : 0) | (shift ? 8 : 0);
  const base = { key: k, code: code ?? k, windowsVirtualKeyCode: keyCode, modifiers };
  await send("Input.dispatchKeyEvent", { type: "rawKeyDown", ...base });
  if (k === "Enter" && !ctrl) await send("Input.dispatchKeyEvent", { type: "char", text: "\r", ...base });
  await send("Input.dispatchKeyEvent", { type: "keyUp", ...base });
}

async function typeInto(sel, text) {
  await evaluate(`${q(sel)}.focus()`);
  await send("Input.insertText", { text });
}

async function shot(name) {
  if (!SHOTS) return;
  const { data } = await send("Page.captureScreenshot", { format: "png" });
  writeFileSync(join(SHOTS, `${name}.png`), Buffer.from(data, "base64"));
}

let failures = 0;
async function check(name, fn) {
  try {
    await fn();
    console.log(`ok   ${name}`);
  } catch (e) {
    failures++;
    console.log(`FAIL ${name}: ${e.message}`);
  }
}
function assert(cond, msg) {
  if (!cond) throw new Error(msg);
}

async function load(query = "") {
  await send("Page.navigate", { url: BASE + query });
  await waitFor(q(tid("question-input")), "app");
}

try {
  await connect();
  await send("Page.enable");
  await send("Runtime.enable");
  await load();

  await check("empty state shows three suggested questions", async () => {
    await waitFor(`${qa(tid("suggested-question"))}.length === 3`, "suggestions");
  });

  await check("library folders with state, progress and failed files", async () => {
    await waitFor(`${qa(tid("folder-item"))}.length === 3`, "folders");
    const states = await evaluate(`${qa(tid("folder-item"))}.map(e => e.dataset.state + "|" + e.dataset.path)`);
    assert(states.some((s) => s.startsWith("indexing|")), `no indexing folder: ${states}`);
    const prog = await evaluate(`${qa(tid("folder-progress"))}.filter(e => e.offsetParent).length`);
    assert(prog === 1, `visible progress bars: ${prog}`);
    await click(tid("folder-failed-count"));
    const failed = await evaluate(`${qa(tid("failed-file"))}.map(e => e.textContent)`);
    assert(failed.length === 2 && failed[1].includes("locked.pdf") && failed[1].includes("encrypted"), JSON.stringify(failed));
  });

  await check("pause / resume indexing", async () => {
    await click(tid("pause-button"));
    await waitFor(`${q(tid("resume-button"))}.offsetParent`, "resume button");
    await click(tid("resume-button"));
    await waitFor(`${q(tid("pause-button"))}.offsetParent`, "pause button");
  });

  await check("Shift+Enter inserts a newline and does not send", async () => {
    await typeInto(tid("question-input"), "line one");
    await key("Enter", { shift: true, keyCode: 13 });
    const v = await evaluate(`${q(tid("question-input"))}.value`);
    assert(v.includes("\n"), `value: ${JSON.stringify(v)}`);
    assert((await evaluate(`${qa(tid("answer"))}.length`)) === 0, "an answer appeared");
    await evaluate(`${q(tid("question-input"))}.value = ""`);
  });

  await check("Enter asks; streaming then done with citations", async () => {
    await typeInto(tid("question-input"), "What SPF did the field study measure?");
    await key("Enter", { keyCode: 13 });
    await waitFor(`${q(tid("answer"))}?.dataset.state === "streaming"`, "streaming");
    await waitFor(`${q(tid("stop-button"))}.offsetParent`, "stop button");
    await waitFor(`${q(tid("step-trace"))}?.textContent.includes("step")`, "live steps");
    await waitFor(`${q(tid("answer"))}?.dataset.state === "done"`, "done", 15000);
    const chips = await evaluate(`${qa(tid("citation-chip"))}.map(c => [c.dataset.label, c.dataset.page, c.dataset.chunkId, c.textContent])`);
    assert(chips.length === 3, JSON.stringify(chips));
    assert(chips[0][1] === "14" && chips[0][3].includes("p.14"), JSON.stringify(chips[0]));
    const unsupported = await evaluate(`${q(tid("answer-text"))}.textContent.includes("(not supported")`);
    assert(unsupported, "unsupported note missing");
    const src = await evaluate(`${qa(tid("source-item"))}.map(s => s.dataset.page)`);
    assert(src.join() === "14,1,7", `sources ${src}`);
    assert(await evaluate(`${q(tid("send-button"))}.offsetParent !== null`), "send button hidden after answer");
  });

  await check("hovering a citation chip shows its quote", async () => {
    const r = await evaluate(`(() => { const b = ${q(tid("citation-chip"))}.getBoundingClientRect(); return [b.x + b.width / 2, b.y + b.height / 2]; })()`);
    await send("Input.dispatchMouseEvent", { type: "mouseMoved", x: r[0], y: r[1] });
    await waitFor(`${q(".tooltip")} && !${q(".tooltip")}.hidden`, "tooltip");
    const t = await evaluate(`${q(".tooltip")}.textContent`);
    assert(t.includes("seasonal performance factor"), t);
    await shot("tooltip");
    await send("Input.dispatchMouseEvent", { type: "mouseMoved", x: 5, y: 5 });
    await waitFor(`${q(".tooltip")}.hidden`, "tooltip hidden");
  });

  await check("citation flag turns into 'reported'", async () => {
    await click(tid("citation-flag"));
    await waitFor(`${q(tid("citation-flag"))}.textContent === "reported"`, "reported");
  });

  await check("viewer: pdf page with highlight, paging, Esc", async () => {
    await click(tid("citation-chip"));
    await waitFor(q(tid("viewer")), "viewer");
    await waitFor(`${q(tid("viewer-page-label"))}.textContent === "Page 14 of 48"`, "page label");
    await waitFor(`${q(tid("viewer-image"))}?.src.startsWith("blob:")`, "page image");
    assert((await evaluate(`${qa(tid("highlight"))}.length`)) >= 1, "no highlight");
    const w = await evaluate(`${q(tid("viewer-image"))}.getBoundingClientRect().width`);
    await click(tid("zoom-in"));
    await waitFor(`${q(tid("viewer-image"))}.getBoundingClientRect().width > ${w}`, "zoomed");
    await click(tid("viewer-next"));
    await waitFor(`${q(tid("viewer-page-label"))}.textContent === "Page 15 of 48"`, "next page");
    assert((await evaluate(`${qa(tid("highlight"))}.length`)) === 0, "highlight on a page without range");
    await click(tid("viewer-prev"));
    await waitFor(`${q(tid("viewer-page-label"))}.textContent === "Page 14 of 48"`, "prev page");
    await key("Escape", { keyCode: 27 });
    await waitFor(`!${q(tid("viewer"))}`, "viewer closed");
  });

  await check("viewer: text page marks the UTF-8 byte range", async () => {
    await evaluate(`${qa(tid("citation-chip"))}.at(-1).click()`);
    await waitFor(`${q(tid("viewer") + " mark")}`, "mark");
    const t = await evaluate(`${q(tid("highlight"))}.textContent`);
    assert(t === "the retrofitted homes in the study gained about 0.3 in SPF after larger radiators were fitted", t);
    await click(tid("viewer-close"));
    await waitFor(`!${q(tid("viewer"))}`, "viewer closed");
  });

  await check("source item opens the viewer", async () => {
    await click(tid("source-item"));
    await waitFor(`${q(tid("viewer-page-label"))}?.textContent === "Page 14 of 48"`, "viewer");
    await key("Escape", { keyCode: 27 });
    await waitFor(`!${q(tid("viewer"))}`, "viewer closed");
  });

  await check("follow-up reuses the conversation id", async () => {
    const before = await evaluate(`${qa(tid("conversation-item"))}.length`);
    await typeInto(tid("question-input"), "And for radiators?");
    await key("Enter", { keyCode: 13 });
    await waitFor(`${qa(tid("answer"))}.length === 2 && ${qa(tid("answer"))}[1].dataset.state === "done"`, "second answer", 15000);
    await sleep(400);
    const after = await evaluate(`${qa(tid("conversation-item"))}.length`);
    assert(after === before, `conversations ${before} -> ${after}`);
  });

  await check("Ctrl+N starts a new chat; Ctrl+K focuses the input", async () => {
    await evaluate(`document.body.focus(); document.activeElement.blur()`);
    await key("n", { ctrl: true, code: "KeyN", keyCode: 78 });
    await waitFor(`${qa(tid("answer"))}.length === 0`, "chat cleared");
    await evaluate(`document.activeElement.blur()`);
    await key("k", { ctrl: true, code: "KeyK", keyCode: 75 });
    assert(await evaluate(`document.activeElement === ${q(tid("question-input"))}`), "input not focused");
  });

  await check("reopen a conversation", async () => {
    await evaluate(`${qa(tid("conversation-item"))}.at(-1).querySelector("button").click()`);
    await waitFor(`${qa(tid("answer"))}.length === 1 && ${q(tid("answer"))}.dataset.state === "done"`, "turns rendered");
    assert(await evaluate(`${qa(tid("citation-chip"))}.length > 0`), "no chips");
  });

  await check("scope selector: options, chips", async () => {
    await click(tid("scope-button"));
    await waitFor(`${qa(tid("scope-option"))}.length >= 4`, "options");
    await evaluate(`${q(tid("scope-option") + " input")}.click()`);
    await waitFor(`${qa(tid("scope-chip"))}.length === 1`, "chip");
    await key("Escape", { keyCode: 27 });
    await evaluate(`${q(tid("scope-chip") + " button")}.click()`);
    await waitFor(`${qa(tid("scope-chip"))}.length === 0`, "chip removed");
  });

  await check("settings dialog opens and Esc closes it", async () => {
    await click(tid("settings-button"));
    await waitFor(q(tid("settings-dialog") + " input"), "settings loaded");
    await key("Escape", { keyCode: 27 });
    await waitFor(`!${q(tid("settings-dialog"))}`, "settings closed");
  });

  await check("Stop before any token: quiet 'Stopped.', no error toast", async () => {
    await load("?mock=slow");
    await typeInto(tid("question-input"), "slow question");
    await key("Enter", { keyCode: 13 });
    await waitFor(`${q(tid("stop-button"))}.offsetParent`, "stop");
    await click(tid("stop-button"));
    await waitFor(`${q(tid("answer"))}.dataset.state === "stopped"`, "stopped");
    assert(await evaluate(`${q(tid("stopped-note"))}?.textContent === "Stopped."`), "no 'Stopped.'");
    assert(!(await evaluate(`!!${q(tid("toast"))}`)), "error toast after stop");
    assert(await evaluate(`${q(tid("send-button"))}.offsetParent !== null`), "send button hidden after stop");
  });

  await check("Stop while writing: partial answer with a stopped note", async () => {
    await typeInto(tid("question-input"), "slow question");
    await key("Enter", { keyCode: 13 });
    await waitFor(`${qa(tid("answer-text"))}.at(-1).textContent.includes("field study")`, "tokens", 15000);
    await click(tid("stop-button"));
    await waitFor(`${qa(tid("answer"))}.at(-1).dataset.state === "done"`, "done after stop");
    assert(await evaluate(`${qa(tid("answer"))}.at(-1).textContent.includes("Stopped")`), "no stopped note");
    assert(!(await evaluate(`!!${q(tid("toast"))}`)), "error toast after stop");
  });

  await check("abstained answer shows notice and nearest passages", async () => {
    await typeInto(tid("question-input"), "what is the weather");
    await key("Enter", { keyCode: 13 });
    await waitFor(q(tid("abstained-notice")), "notice", 15000);
    assert(await evaluate(`${q(tid("abstained-notice"))}.textContent.includes("do not cover")`), "notice text");
  });

  await check("model banner and error toast", async () => {
    await load("?mock=nomodel,fail");
    await waitFor(`${q(tid("model-banner"))}.offsetParent && ${q(tid("model-banner"))}.textContent.includes("extractive")`, "banner");
    await typeInto(tid("question-input"), "x");
    await key("Enter", { keyCode: 13 });
    await waitFor(q(tid("toast")), "toast");
    assert(await evaluate(`${q(tid("answer"))}.dataset.state === "error"`), "answer not in error state");
  });

  await check("library error and notice are shown", async () => {
    await load("?mock=liberror,notice");
    await waitFor(`${q(tid("library-error"))}?.offsetParent`, "library error");
    assert(await evaluate(`${q(tid("library-error"))}.textContent.includes("could not start")`), "error text");
    await waitFor(`${q(tid("library-notice"))}?.offsetParent`, "library notice");
  });

  await check("cancel indexing leaves the folder 'stopped'", async () => {
    await load();
    await waitFor(`${q(tid("cancel-button"))}?.offsetParent`, "cancel button");
    await click(tid("cancel-button"));
    await click('[data-testid="confirm-ok"]');
    await waitFor(`${qa(tid("folder-item"))}.some(e => e.dataset.state === "stopped")`, "stopped folder");
    assert(
      await evaluate(`${qa(tid("folder-item"))}.find(e => e.dataset.state === "stopped").textContent.includes("partly indexed")`),
      "stopped detail",
    );
  });

  await check("viewer warns when the file changed since indexing", async () => {
    await typeInto(tid("question-input"), "What SPF did the field study measure?");
    await key("Enter", { keyCode: 13 });
    await waitFor(`${q(tid("answer"))}?.dataset.state === "done"`, "done", 15000);
    await click(tid("citation-chip"));
    await waitFor(`${q(tid("viewer-page-label"))}?.textContent === "Page 14 of 48"`, "viewer");
    assert(!(await evaluate(`${q(tid("viewer-changed-warning"))}.offsetParent`)), "warning on an unchanged file");
    await key("Escape", { keyCode: 27 });
    await waitFor(`!${q(tid("viewer"))}`, "viewer closed");
    await evaluate(`${qa(tid("source-item"))}.at(-1).click()`);
    await waitFor(`${q(tid("viewer-changed-warning"))}?.offsetParent`, "changed warning");
    await key("Escape", { keyCode: 27 });
    await waitFor(`!${q(tid("viewer"))}`, "viewer closed");
  });

  await check("remove folder asks for confirmation", async () => {
    await load();
    await waitFor(`${qa(tid("folder-item"))}.length === 3`, "folders");
    await evaluate(`${q(tid("remove-folder-button"))}.click()`);
    await click('[data-testid="confirm-ok"]');
    await waitFor(`${qa(tid("folder-item"))}.length === 2`, "folder removed");
  });

  await check("no HTML sinks reachable: markdown link/image in DOM are text", async () => {
    const imgs = await evaluate(`${qa(".answer img, .sources img")}.length`);
    assert(imgs === 0, "img in answer");
  });

  await check("an abstained answer says why, in English and in Chinese", async () => {
    const abstain = async (question, expected, name) => {
      await typeInto(tid("question-input"), question);
      await key("Enter", { keyCode: 13 });
      await waitFor(`${qa(tid("answer-note"))}.some(n => n.textContent.includes(${JSON.stringify(expected)}))`, expected, 15000);
      await shot(name);
    };
    await load();
    await abstain("what's the weather tomorrow", "Not answered: no passage of the library covers the question.", "abstained-en");
    await evaluate(`localStorage.setItem("pagewise.locale", "zh-CN")`);
    await load();
    await abstain("明天 weather 怎么样", "未作回答：文档库中没有段落涉及这个问题。", "abstained-zh");
    await evaluate(`localStorage.removeItem("pagewise.locale")`);
  });
} catch (e) {
  failures++;
  console.log(`FAIL setup: ${e.message}`);
} finally {
  try {
    ws?.close();
  } catch {
    /* ignore */
  }
  chrome.kill();
  await sleep(300);
  rmSync(profile, { recursive: true, force: true });
}
console.log(failures ? `\n${failures} check(s) failed` : "\nall smoke checks passed");
process.exit(failures ? 1 : 0);
