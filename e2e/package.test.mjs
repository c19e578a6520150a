// The installed package's app on its first start, run by e2e/package.sh from an unpacked
// .deb with an empty HOME and no network: the bundled sample is indexed without being
// asked, a question is answered with the packaged chat model, and its citation opens the
// page with the passage highlighted.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";

import { Driver, Keys } from "./webdriver.mjs";

const APP = process.env.PAGEWISE_E2E_APP;
const ARTIFACTS = process.env.PAGEWISE_E2E_ARTIFACTS;
const DRIVER = "http://127.0.0.1:4444";

let d;
const shot = (name) => d.screenshot(path.join(ARTIFACTS, `${name}.png`));

before(async () => {
  d = await Driver.start(DRIVER, APP, []);
});

after(async () => {
  if (d) await d.quit();
});

test("the first start indexes the bundled sample with the packaged models", async () => {
  const folder = await d.waitFor(
    "the bundled sample to be up to date",
    async () => {
      for (const f of await d.allByTestId("folder-item")) {
        const p = (await f.attr("data-path")) ?? "";
        if (p.endsWith("/usr/lib/Pagewise/sample") && (await f.attr("data-state")) === "up_to_date") return f;
      }
      return null;
    },
    300000,
  );
  assert.ok(folder);
  for (const failed of await folder.findAll('[data-testid="folder-failed-count"]')) {
    assert.equal(await failed.displayed(), false, `nothing failed: ${await failed.text()}`);
  }
  await shot("package-library");
});

test("a question is answered by the packaged chat model with a citation that opens its page", async () => {
  const input = await d.byTestId("question-input");
  await input.type("What was the total installed capacity of the Brightwater Solar Cooperative at the end of 2024?");
  await input.type(Keys.ENTER);
  const answer = await d.waitFor(
    "the answer",
    async () => {
      const all = await d.allByTestId("answer");
      const last = all[all.length - 1];
      return last && (await last.attr("data-state")) === "done" ? last : null;
    },
    300000,
    200,
  );
  assert.equal((await d.allByTestId("abstained-notice")).length, 0, "answered, not abstained");
  const chips = await answer.findAll('[data-testid="citation-chip"]');
  if (!chips.length) await shot("package-failure-no-chips");
  assert.ok(chips.length > 0, `cited: ${await answer.text()}`);
  const banner = await d.byTestId("model-banner");
  assert.equal(await banner.displayed(), false, `no missing-model banner: ${await banner.text()}`);
  await shot("package-answer");
  let chip = chips[0];
  for (const c of chips) if ((await c.attr("data-page")) === "3") chip = c;
  await chip.click();
  const label = await d.waitFor("the viewer's page label", async () => {
    const l = await d.allByTestId("viewer-page-label");
    return l.length && /Page \d+ of \d+/.test(await l[0].text()) ? l[0] : null;
  });
  assert.match(await label.text(), new RegExp(`Page ${await chip.attr("data-page")} of`));
  await d.waitFor("the page image", async () => {
    const imgs = await d.allByTestId("viewer-image");
    if (!imgs.length) return null;
    return d.execute("const i = arguments[0]; return i.complete && i.naturalWidth > 0;", [{ "element-6066-11e4-a52e-4f735466cecf": imgs[0].id }]);
  }, 60000);
  await d.waitFor("a highlight", async () => (await d.allByTestId("highlight")).length > 0, 60000);
  await new Promise((r) => setTimeout(r, 400));
  await shot("package-viewer");
});

test("the Models screen shows the packaged models, in use", async () => {
  await d.execute("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape', bubbles: true}));");
  await d.waitFor("the viewer to close", async () => d.execute("return document.querySelectorAll('.overlay').length === 0;"));
  await (await d.byTestId("models-button")).click();
  // The dialog fades in: wait until its rows are shown.
  const chat = await d.waitFor("the installed chat model", async () => {
    const rows = await d.allByTestId("installed-model");
    return rows.length && (await rows[0].text()) ? rows[0] : null;
  });
  const text = await chat.text();
  assert.match(text, /\.gguf/);
  assert.match(text, /in use/, text);
  const embedder = await d.waitFor("the embedding model", async () => {
    const rows = await d.allByTestId("installed-embedder");
    return rows.length && (await rows[0].text()) ? rows[0] : null;
  });
  assert.match(await embedder.text(), /all-MiniLM-L6-v2[\s\S]*384 dimensions[\s\S]*in use/);
  assert.ok((await chat.attr("title")).includes("/usr/lib/Pagewise/models/llm/"), "the packaged file");
  await shot("package-models");
});
