// A minimal W3C WebDriver client (what the suite needs and no more): sessions, elements,
// clicks, keys, scripts and screenshots over plain HTTP to tauri-driver.

const ELEMENT = "element-6066-11e4-a52e-4f735466cecf";

export class Driver {
  constructor(base, sessionId) {
    this.base = base;
    this.sessionId = sessionId;
  }

  static async start(base, application, args = []) {
    const capabilities = {
      alwaysMatch: {
        browserName: "wry",
        "wdio:enforceWebDriverClassic": true,
        "tauri:options": { application, args },
      },
    };
    const res = await call(base, "POST", "/session", { capabilities });
    return new Driver(base, res.sessionId ?? res.value?.sessionId);
  }

  cmd(method, path, body) {
    return call(this.base, method, `/session/${this.sessionId}${path}`, body).then((r) => r.value);
  }

  quit() {
    return call(this.base, "DELETE", `/session/${this.sessionId}`).catch(() => undefined);
  }

  async findAll(css) {
    const found = await this.cmd("POST", "/elements", { using: "css selector", value: css });
    return found.map((e) => new Element(this, e[ELEMENT]));
  }

  async find(css) {
    const all = await this.findAll(css);
    if (all.length === 0) throw new Error(`no element matches ${css}`);
    return all[0];
  }

  byTestId(id, extra = "") {
    return this.find(`[data-testid="${id}"]${extra}`);
  }

  allByTestId(id, extra = "") {
    return this.findAll(`[data-testid="${id}"]${extra}`);
  }

  execute(script, args = []) {
    return this.cmd("POST", "/execute/sync", { script, args });
  }

  executeAsync(script, args = []) {
    return this.cmd("POST", "/execute/async", { script, args });
  }

  async screenshot(file) {
    const { writeFile } = await import("node:fs/promises");
    const png = await this.cmd("GET", "/screenshot");
    await writeFile(file, Buffer.from(png, "base64"));
  }

  /** Polls `probe` until it returns a truthy value; returns it. */
  async waitFor(what, probe, timeoutMs = 60000, everyMs = 150) {
    const until = Date.now() + timeoutMs;
    let last;
    for (;;) {
      try {
        last = await probe();
        if (last) return last;
      } catch (e) {
        last = e;
      }
      if (Date.now() > until) throw new Error(`timed out waiting for ${what} (last: ${last})`);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  }
}

export class Element {
  constructor(driver, id) {
    this.driver = driver;
    this.id = id;
  }
  cmd(method, path, body) {
    return this.driver.cmd(method, `/element/${this.id}${path}`, body);
  }
  click() {
    return this.cmd("POST", "/click", {});
  }
  text() {
    return this.cmd("GET", "/text");
  }
  attr(name) {
    return this.cmd("GET", `/attribute/${name}`);
  }
  type(text) {
    return this.cmd("POST", "/value", { text });
  }
  clear() {
    return this.cmd("POST", "/clear", {});
  }
  displayed() {
    return this.cmd("GET", "/displayed");
  }
  rect() {
    return this.cmd("GET", "/rect");
  }
  async findAll(css) {
    const found = await this.cmd("POST", "/elements", { using: "css selector", value: css });
    return found.map((e) => new Element(this.driver, e[ELEMENT]));
  }
}

async function call(base, method, path, body) {
  const res = await fetch(base + path, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) {
    const v = json.value ?? {};
    throw new Error(`${method} ${path}: ${res.status} ${v.error ?? ""} ${v.message ?? JSON.stringify(json)}`);
  }
  return json;
}

export const Keys = { ENTER: "\uE007", ESCAPE: "\uE00C", SHIFT: "\uE008", CONTROL: "\uE009" };
