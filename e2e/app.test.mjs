// End to end in the real built app: WebKitWebDriver through tauri-driver, under Xvfb.
// Run by e2e/run.sh, which builds the fixtures and sets the environment below.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

import { Driver, Keys } from "./webdriver.mjs";

const APP = process.env.PAGEWISE_E2E_APP;
const FIXTURE = process.env.PAGEWISE_E2E_FIXTURE;
const DROP_FOLDER = process.env.PAGEWISE_E2E_DROP;
const ARTIFACTS = process.env.PAGEWISE_E2E_ARTIFACTS;
const DRIVER = process.env.PAGEWISE_E2E_DRIVER ?? "http://127.0.0.1:4444";

let d;
const shot = (name) => d.screenshot(path.join(ARTIFACTS, `${name}.png`));

before(async () => {
  d = await Driver.start(DRIVER, APP, ["--no-sample", FIXTURE]);
});

after(async () => {
  if (d) await d.quit();
});

async function folder(pathEnd) {
  const items = await d.allByTestId("folder-item");
  for (const item of items) {
    if ((await item.attr("data-path"))?.endsWith(pathEnd)) return item;
  }
  return null;
}

/** A closing dialog fades out for a moment, and its overlay takes clicks meant for what is
 * under it: wait until none is left. */
async function noDialogs() {
  await d.waitFor("no dialog left open", async () => d.execute("return document.querySelectorAll('.overlay').length === 0;"));
}

async function ask(question) {
  const before = (await d.allByTestId("answer")).length;
  const input = await d.byTestId("question-input");
  await input.clear();
  await input.type(question);
  await input.type(Keys.ENTER);
  // Streaming: an answer bubble appears in state "streaming" and fills token by token; the
  // sources' best sentences show before the model has finished.
  let sawStreaming = false;
  let sawEvidence = false;
  const answer = await d.waitFor(
    "the answer to finish",
    async () => {
      const all = await d.allByTestId("answer");
      if (all.length <= before) return null;
      const last = all[all.length - 1];
      const state = await last.attr("data-state");
      if (state === "streaming") {
        sawStreaming = true;
        if (!sawEvidence && (await last.findAll('[data-testid="live-evidence-quote"]')).length > 0) {
          sawEvidence = true;
          // WebKit paints a beat after the DOM changes; the check above is the assertion, the
          // picture is for people, so give it the frame.
          await new Promise((r) => setTimeout(r, 400));
          await shot("chat-evidence-first").catch(() => undefined);
        }
      }
      return state === "done" ? last : null;
    },
    180000,
    50,
  );
  return { answer, sawStreaming, sawEvidence };
}

test("the library indexes the fixture folder and lists the failed file with its reason", async () => {
  const item = await d.waitFor(
    "the fixture folder to be up to date",
    async () => {
      const f = await folder(path.basename(FIXTURE));
      return f && (await f.attr("data-state")) === "up_to_date" ? f : null;
    },
    180000,
  );
  const failedCount = await item.findAll('[data-testid="folder-failed-count"]');
  assert.ok(failedCount.length === 1, "an error count is shown");
  assert.match(await failedCount[0].text(), /1/);
  await failedCount[0].click();
  const failed = await d.waitFor("the failed file list", async () => {
    const rows = await d.allByTestId("failed-file");
    return rows.length ? rows : null;
  });
  const text = await failed[0].text();
  assert.match(text, /broken\.pdf/);
  assert.match(text, /PDF|pdf|format|damaged|cannot/i, `a reason is given: ${text}`);
  await shot("library");
});

test("a question streams an answer whose citation opens the cited page with the passage highlighted", async () => {
  const { answer, sawStreaming, sawEvidence } = await ask("What was the total installed capacity of the Brightwater Solar Cooperative at the end of 2024?");
  assert.ok(sawStreaming, "the answer was shown while it streamed");
  assert.ok(sawEvidence, "the cited source sentences were shown while the model was still writing");
  const text = await (await answer.findAll('[data-testid="answer-text"]'))[0].text();
  assert.ok(text.length > 0);
  const chips = await answer.findAll('[data-testid="citation-chip"]');
  if (chips.length === 0) await shot("failure-no-chips");
  assert.ok(chips.length > 0, `the answer has citation chips: ${await answer.text()}`);
  let chip = null;
  for (const c of chips) {
    if ((await c.attr("data-page")) === "3") chip = c;
  }
  assert.ok(chip, "a chip cites page 3 of the field guide, where the capacity is given");
  assert.equal((await d.allByTestId("abstained-notice")).length, 0, "the question is answered, not abstained");
  await shot("chat");
  await chip.click();
  // The page label fills in once the page is loaded (rendered in the worker process).
  const label = await d.waitFor("the viewer's page label", async () => {
    const l = await d.allByTestId("viewer-page-label");
    return l.length && (await l[0].displayed()) && /Page \d+ of \d+/.test(await l[0].text()) ? l[0] : null;
  });
  assert.match(await label.text(), /Page 3 of \d+/);
  await d.waitFor("the page image", async () => {
    const imgs = await d.allByTestId("viewer-image");
    if (!imgs.length) return null;
    const loaded = await d.execute("const i = arguments[0]; return i.complete && i.naturalWidth > 0;", [{ "element-6066-11e4-a52e-4f735466cecf": imgs[0].id }]);
    return loaded;
  });
  await d.waitFor("a highlight", async () => (await d.allByTestId("highlight")).length > 0);
  // Every highlight lies on the rendered page (pointer-events are off, so measure in the page).
  const boxes = await d.execute(`
    const page = document.querySelector('[data-testid="viewer-image"]').getBoundingClientRect();
    return [...document.querySelectorAll('[data-testid="highlight"]')].map(h => {
      const r = h.getBoundingClientRect();
      return { inside: r.left >= page.left - 1 && r.right <= page.right + 1 && r.top >= page.top - 1 && r.bottom <= page.bottom + 1,
               w: r.width, h: r.height };
    });`);
  assert.ok(boxes.length > 0);
  for (const b of boxes) {
    assert.ok(b.w > 2 && b.h > 2, `the highlight has a size: ${JSON.stringify(b)}`);
    assert.ok(b.inside, "the highlight lies on the page");
  }
  await shot("viewer-light");
  await d.execute("document.documentElement.dataset.theme = 'dark';");
  await shot("viewer-dark");
  await (await d.byTestId("question-input")).type(Keys.ESCAPE).catch(() => undefined);
  await d.execute("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape', bubbles: true}));");
  await d.waitFor("the viewer to close", async () => (await d.allByTestId("viewer-page-label")).length === 0 || !(await (await d.byTestId("viewer-page-label")).displayed()));
  await noDialogs();
  await shot("chat-dark");
  await d.execute("delete document.documentElement.dataset.theme;");
});

test("the scope selector limits the sources to the chosen document", async () => {
  await (await d.byTestId("scope-button")).click();
  const option = await d.waitFor("the handbook in the scope list", async () => {
    for (const o of await d.allByTestId("scope-option")) {
      if ((await o.attr("data-path"))?.endsWith("team-handbook.md")) return o;
    }
    return null;
  });
  await option.click();
  await (await d.byTestId("scope-button")).click();
  await d.waitFor("the scope chip", async () => (await d.allByTestId("scope-chip")).length === 1);
  await ask("How many days of paid vacation do employees get?");
  const sources = await d.allByTestId("source-item");
  assert.ok(sources.length > 0, "the scoped answer has sources");
  for (const s of sources) {
    assert.match(await s.attr("title"), /team-handbook\.md$/);
  }
  await shot("scoped");
});

test("a document with HTML, script, images and injected instructions is shown as text only", async () => {
  await d.execute("for (const c of document.querySelectorAll('[data-testid=scope-chip] button')) c.click();");
  const { answer } = await ask("What is the rotation code in the vendor security notice?");
  const report = await d.execute(`
    const a = arguments[0];
    return {
      pwned: window.__pwned ?? null,
      liveInAnswer: a.querySelectorAll('script, img, iframe, object, embed, a[href]').length,
      remoteImages: [...document.images].filter(i => !/^(blob:|tauri:|http:\\/\\/tauri\\.localhost|data:)/.test(i.src)).map(i => i.src),
      scripts: [...document.scripts].filter(s => !s.src).length,
      text: a.textContent,
    };`, [{ "element-6066-11e4-a52e-4f735466cecf": answer.id }]);
  assert.equal(report.pwned, null, "no script from the document ran");
  assert.equal(report.liveInAnswer, 0, "the answer holds no live HTML");
  assert.deepEqual(report.remoteImages, [], "no remote image was loaded");
  assert.equal(report.scripts, 0, "no inline script exists in the page");
  // Open the hostile document's source page: its text is shown as text too.
  const sources = await d.allByTestId("source-item");
  for (const s of sources) {
    if ((await s.attr("title")).endsWith("vendor-notice.md")) {
      await s.click();
      // The text viewer marks the passage with a <mark>; PDF highlights are empty boxes.
      const mark = await d.waitFor("the text viewer with the passage marked", async () => {
        const marks = await d.findAll('mark[data-testid="highlight"]');
        return marks.length && (await marks[0].text()).trim() ? marks[0] : null;
      });
      const marked = (await mark.text()).replace(/\s+/g, " ").trim();
      // Markdown is read as it renders: a link keeps its words, not its target.
      const source = readFileSync(path.join(FIXTURE, "vendor-notice.md"), "utf8").replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/\s+/g, " ");
      assert.ok(marked.length > 0 && source.includes(marked), `the marked passage is text of the document: ${marked}`);
      assert.ok(marked.includes("<script>window.__pwned = 1</script>"), `the document's HTML is shown as text: ${marked}`);
      await shot("hostile-viewer");
      const viewerLive = await d.execute("return document.querySelectorAll('[data-testid=viewer] script, [data-testid=viewer] iframe, [data-testid=viewer] img:not([data-testid=viewer-image])').length;");
      assert.equal(viewerLive, 0, "the viewer shows the document as text");
      assert.equal(await d.execute("return window.__pwned ?? null;"), null);
      await d.execute("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape', bubbles: true}));");
      break;
    }
  }
  await shot("hostile");
});

test("settings list the installed chat models with their size and measured speed", async () => {
  await d.execute("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape', bubbles: true}));");
  await noDialogs();
  await (await d.byTestId("settings-button")).click();
  // Rows can be in the DOM before the dialog is shown, and WebDriver reads hidden text as "":
  // wait until the rows are visible with text, not merely present.
  const texts = await d.waitFor("the installed models, visible", async () => {
    const rows = await d.allByTestId("installed-model");
    const t = await Promise.all(rows.map((r) => r.text()));
    return t.some((x) => x.trim()) ? t : null;
  });
  assert.ok(texts.some((t) => /\.gguf/.test(t) && /MB/.test(t)), `models are listed with their size: ${texts.join(" | ")}`);
  // The questions above ran on the default model, so its speed on this machine is known.
  assert.ok(texts.some((t) => /in use/.test(t) && /tokens\/s/.test(t)), `the model in use shows its measured speed: ${texts.join(" | ")}`);
  // The GGUF header's quantisation and context length are shown beside the size.
  assert.ok(texts.some((t) => /Q4_K_M/.test(t) && /token context/.test(t)), `models show their quantisation and context: ${texts.join(" | ")}`);
  await shot("settings-models");
  // Choosing a server shows its address, its models and that this uses the network; the
  // choice is not saved (Cancel), so answers stay on this computer.
  const serverFields = await d.byTestId("endpoint-fields");
  assert.equal(await serverFields.displayed(), false, "server fields are hidden while answers are local");
  await (await d.byTestId("generate-server")).click();
  await d.waitFor("the server fields", async () => ((await serverFields.displayed()) ? true : null));
  const note = await (await d.byTestId("endpoint-network-note")).text();
  assert.match(note, /network/i, note);
  await shot("settings-endpoint");
  await (await d.byTestId("settings-cancel")).click();
  await noDialogs();
});

test("the search view finds passages as you type, narrows by type and opens the page", async () => {
  await d.execute("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape', bubbles: true}));");
  await noDialogs();
  await (await d.byTestId("search-button")).click();
  const input = await d.byTestId("search-input");
  await input.type("cooperative members");
  const first = await d.waitFor("search results", async () => {
    const rows = await d.allByTestId("search-result");
    return rows.length ? rows[0] : null;
  });
  assert.match(await first.text(), /Brightwater|cooperative/i);
  const marks = await d.execute("return Array.from(document.querySelectorAll('[data-testid=search-result] mark')).map((m) => m.textContent.toLowerCase());");
  assert.ok(marks.some((m) => m.startsWith("member")), `the words are marked: ${marks}`);
  await shot("search");
  // Only Markdown: the solar report's passages go.
  await d.execute("const s = document.querySelector('[data-testid=facet-type]'); s.value = 'md'; s.dispatchEvent(new Event('change'));");
  await d.waitFor("results narrowed to Markdown", async () => {
    const rows = await d.allByTestId("search-result");
    const texts = await Promise.all(rows.map((r) => r.text()));
    return texts.every((t) => !/Brightwater Solar Cooperative — Annual Report/.test(t)) ? true : null;
  });
  await d.execute("const s = document.querySelector('[data-testid=facet-type]'); s.value = ''; s.dispatchEvent(new Event('change'));");
  await d.waitFor("all types again", async () => ((await d.allByTestId("search-result")).length ? true : null));
  await input.type(Keys.ENTER);
  await d.waitFor("the viewer at the passage", async () => ((await d.allByTestId("viewer")).length ? true : null));
  await d.execute("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape', bubbles: true}));");
  await d.execute("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape', bubbles: true}));");
  await noDialogs();
});

test("the table view reads a figure from the report's table and opens its cell marked on the page", async () => {
  await noDialogs();
  await (await d.byTestId("table-button")).click();
  const fields = await d.waitFor("the table dialog", async () => {
    const found = await d.allByTestId("table-fields");
    return found.length && (await found[0].displayed()) ? found[0] : null;
  });
  // Keys sent while the dialog is still fading in can be lost: type again until they land.
  const typed = () => d.execute("return document.querySelector('[data-testid=table-fields]').value;");
  await d.waitFor("the field typed", async () => {
    const now = await typed();
    if (now === "capacity") return true;
    if (now === "") await fields.type("capacity");
    return null;
  });
  await (await d.byTestId("table-read")).click();
  const summary = () => d.execute("return document.querySelector('[data-testid=table-summary]')?.textContent ?? '(no summary)';");
  const cell = await d
    .waitFor(
      "a found cell",
      async () => {
        const cells = await d.allByTestId("table-cell");
        return cells.length ? cells[0] : null;
      },
      120000,
    )
    .catch(async (e) => {
      await shot("table-failed").catch(() => undefined);
      throw new Error(`${e.message}; field "${await typed()}", summary "${await summary()}"`);
    });
  assert.match(await cell.text(), /5,000/);
  // WebKit paints a beat after the DOM changes; the picture is for people.
  await new Promise((r) => setTimeout(r, 400));
  await shot("table");
  await cell.click();
  const marked = await d.waitFor("the cell and its column's title marked on the page", async () => {
    const focus = await d.allByTestId("highlight-focus");
    return focus.length >= 2 ? focus : null;
  });
  const boxes = await d.execute(
    "return ['highlight', 'highlight-focus'].map((id) => Array.from(document.querySelectorAll(`[data-testid=${id}]`)).map((e) => { const r = e.getBoundingClientRect(); return [r.top, r.width]; }));",
  );
  const [[row], [cellBox, title]] = boxes;
  assert.ok(Math.abs(cellBox[0] - row[0]) < 4 && cellBox[1] < row[1] / 3, `the cell on its row: ${JSON.stringify(boxes)}`);
  assert.ok(title[0] < row[0], `the column's title above the row: ${JSON.stringify(boxes)}`);
  assert.equal(marked.length, 2);
  await new Promise((r) => setTimeout(r, 400));
  await shot("table-cell-viewer");
  await d.execute("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape', bubbles: true}));");
  await d.execute("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape', bubbles: true}));");
  await noDialogs();
});

test("a folder dropped from another application (real X11 drag and drop) is indexed with visible progress", async () => {
  const source = spawn(process.env.PAGEWISE_E2E_PYTHON ?? "/usr/bin/python3", [path.join(import.meta.dirname, "drag_source.py"), DROP_FOLDER], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise((resolve) => source.stdout.once("data", resolve));
  const x = (args) => execFileSync("xdotool", args, { encoding: "utf8" }).trim();
  const sourceWindow = await d.waitFor("the drag source window", async () => x(["search", "--name", "pagewise-drag-source"]).split("\n")[0]);
  const appWindow = x(["search", "--name", "^Pagewise$"]).split("\n")[0];
  x(["windowmove", sourceWindow, "0", "0"]);
  x(["windowmove", appWindow, "200", "0"]);
  await new Promise((r) => setTimeout(r, 300));
  // Press on the source, move in steps (GTK starts a drag after a threshold), release over the chat.
  x(["mousemove", "60", "50"]);
  x(["mousedown", "1"]);
  for (const [mx, my] of [[70, 55], [90, 60], [140, 80], [300, 200], [600, 400], [700, 420]]) {
    x(["mousemove", String(mx), String(my)]);
    await new Promise((r) => setTimeout(r, 120));
  }
  x(["mouseup", "1"]);
  let sawProgress = false;
  const item = await d.waitFor(
    "the dropped folder to be indexed",
    async () => {
      const f = await folder(path.basename(DROP_FOLDER));
      if (!f) return null;
      const state = await f.attr("data-state");
      if (state === "indexing" || state === "embedding" || state === "queued") {
        const bars = await f.findAll('[data-testid="folder-progress"]');
        if (bars.length && (await bars[0].displayed())) {
          sawProgress = true;
          await shot("library-progress").catch(() => undefined);
        }
      }
      return state === "up_to_date" ? f : null;
    },
    240000,
    100,
  );
  source.kill();
  assert.ok(item, "the dropped folder was added");
  assert.ok(sawProgress, "a progress bar was shown while it was indexed");
  await shot("library-after-drop");
});

/** Ends the session in use and starts `launcher` (the app with its own data and settings
 * folders) in its place. */
async function restartAs(launcher, args) {
  if (d) await d.quit();
  d = null;
  d = await Driver.start(DRIVER, launcher, args);
}

async function shownLibrary() {
  const items = await d.allByTestId("folder-item");
  const paths = await Promise.all(items.map((i) => i.attr("data-path")));
  const summary = await d.allByTestId("library-summary");
  const documents = summary.length ? Number(await summary[0].attr("data-documents")) : 0;
  return { paths, documents };
}

test("a library the CLI indexed shows its folder and documents at once, with no settings and no argument", async () => {
  await restartAs(process.env.PAGEWISE_E2E_APP_OVER_CLI_LIBRARY, []);
  const started = Date.now();
  const shown = await d.waitFor(
    "the CLI's folder and its documents",
    async () => {
      const s = await shownLibrary();
      return s.paths.length === 1 && s.documents === 3 ? s : null;
    },
    10000,
  );
  assert.ok(shown.paths[0].endsWith("sample"), shown.paths[0]);
  console.log(`library shown ${Date.now() - started} ms after the session started`);
  // WebKit paints a beat after the DOM changes.
  await new Promise((r) => setTimeout(r, 400));
  await shot("first-start-over-cli-library");
});

test("a fresh start with the sample folder as its argument lists it once", async () => {
  await restartAs(process.env.PAGEWISE_E2E_APP_FRESH, [process.env.PAGEWISE_E2E_SAMPLE]);
  await d.waitFor(
    "the sample folder to be up to date",
    async () => {
      const items = await d.allByTestId("folder-item");
      return items.length && (await items[0].attr("data-state")) === "up_to_date" ? items : null;
    },
    180000,
  );
  // The bundled copy, offered on a first start, is the same content: not a second folder.
  await new Promise((r) => setTimeout(r, 1000));
  const shown = await shownLibrary();
  assert.equal(shown.paths.length, 1, `one folder: ${shown.paths}`);
  assert.equal(shown.documents, 3);
  await shot("first-start-with-sample-argument");
});

test("settings say the app has made no network connection", async () => {
  await noDialogs();
  await (await d.byTestId("settings-button")).click();
  // The log is read from this data dir; nothing above used the network, so it is empty.
  const empty = await d.waitFor("the network section, visible", async () => {
    const found = await d.allByTestId("network-log-empty");
    return found.length && (await found[0].displayed()) && (await found[0].text()).trim() ? found[0] : null;
  });
  assert.match(await empty.text(), /No connections/);
  assert.equal((await d.allByTestId("network-log-row")).length, 0, "no connection is listed");
  assert.match(await (await d.byTestId("network-log-nothing-else")).text(), /no telemetry, no update checks/);
  await d.execute("document.querySelector('[data-testid=network-log]').scrollIntoView({ block: 'center' });");
  await shot("settings-network");
  await (await d.byTestId("settings-cancel")).click();
  await noDialogs();
});

test("the app speaks Chinese: labels, a question and its cited answer", async () => {
  // `?lang=zh-CN` forces the language for this page load, as a Chinese system locale would.
  await d.execute("location.replace(location.pathname + '?lang=zh-CN'); return true;");
  await d.waitFor("the page in Chinese", async () => d.execute("return document.documentElement.lang === 'zh-CN';"));
  await d.waitFor("the sample folder listed again", async () => {
    const items = await d.allByTestId("folder-item");
    return items.length && (await items[0].attr("data-state")) === "up_to_date" ? items : null;
  });
  const input = await d.byTestId("question-input");
  assert.equal(await input.attr("placeholder"), "就你的文档提问…");
  await shot("library-zh");
  // The sample folder is in English, and the embedding model reads English only: a bilingual
  // user asks it in English; the labels around the answer are Chinese.
  const { answer } = await ask("What was the total installed capacity of the Brightwater Solar Cooperative at the end of 2024?");
  const chips = await answer.findAll('[data-testid="citation-chip"]');
  assert.ok(chips.length > 0, `the answer has citation chips: ${await answer.text()}`);
  const pages = await Promise.all(chips.map((c) => c.attr("data-page")));
  assert.ok(pages.includes("3"), `a chip cites page 3 of the field guide: ${pages}`);
  assert.match(await answer.text(), /秒/, "the answer's timing is labelled in Chinese");
  await shot("chat-zh");
});
