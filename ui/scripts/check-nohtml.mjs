// Fails if any source file under src/ uses an HTML-parsing sink.
// Model output and document text must only ever reach the DOM via
// createElement/textContent (see README.md).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../src", import.meta.url));
const banned = /\b(innerHTML|outerHTML|insertAdjacentHTML|document\.write(ln)?|createContextualFragment|DOMParser|srcdoc)\b/;

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* walk(p);
    else if (/\.(ts|js|mjs|tsx|jsx|html)$/.test(name)) yield p;
  }
}

let bad = 0;
for (const file of walk(root)) {
  readFileSync(file, "utf8").split("\n").forEach((line, i) => {
    if (banned.test(line)) {
      console.error(`${relative(process.cwd(), file)}:${i + 1}: ${line.trim()}`);
      bad++;
    }
  });
}
if (bad) {
  console.error(`check:nohtml: ${bad} forbidden HTML sink(s) found in src/`);
  process.exit(1);
}
console.log("check:nohtml: ok (no innerHTML/outerHTML/insertAdjacentHTML/document.write in src/)");
