import { describe, expect, it } from "vitest";
import { ALLOWED_TAGS, type MdNode, mount, parseInline, parseMarkdown, plainText } from "./markdown";

/** Every tag used anywhere in a tree. */
function tags(nodes: MdNode[], acc = new Set<string>()): Set<string> {
  for (const n of nodes) {
    acc.add(n.tag);
    if (n.tag !== "#text") tags(n.children, acc);
  }
  return acc;
}

/** Compact string form of a tree, for readable assertions. */
function show(nodes: MdNode[]): string {
  return nodes
    .map((n) => (n.tag === "#text" ? JSON.stringify(n.text) : `${n.tag}(${show(n.children)})`))
    .join(" ");
}

// A tiny hand-written DOM shim: enough to prove mount() only ever creates
// elements and text nodes (it has no HTML parsing at all).
class FakeNode {
  children: FakeNode[] = [];
  attrs: Record<string, string> = {};
  className = "";
  constructor(
    public tag: string,
    public text = "",
  ) {}
  appendChild(c: FakeNode) {
    this.children.push(c);
    return c;
  }
  setAttribute(k: string, v: string) {
    this.attrs[k] = v;
  }
  get textContent(): string {
    return this.tag === "#text" ? this.text : this.children.map((c) => c.textContent).join("");
  }
  all(): FakeNode[] {
    return [this, ...this.children.flatMap((c) => c.all())];
  }
}
const fakeDoc = {
  createElement: (t: string) => new FakeNode(t),
  createTextNode: (t: string) => new FakeNode("#text", t),
  createDocumentFragment: () => new FakeNode("#fragment"),
};
const mountFake = (src: string) => mount<FakeNode>(parseMarkdown(src), fakeDoc);

const HOSTILE = [
  "<script>alert(1)</script>",
  '<img src=x onerror="alert(1)">',
  "Hello <b onclick=alert(1)>there</b>",
  "![x](http://evil/x.png)",
  "[a](javascript:alert(1))",
  "[**click**](https://example.com)",
  "<a href='javascript:alert(1)'>x</a>",
  "```html\n<script>alert(1)</script>\n```",
  "- <iframe src=//evil></iframe>\n- ![pixel](http://t/p.gif)",
  "# <svg onload=alert(1)>",
  "<http://autolink.example>",
];

describe("safety", () => {
  it("<script> ends up as literal text", () => {
    const tree = parseMarkdown("<script>alert(1)</script>");
    expect(show(tree)).toBe('p("<script>alert(1)</script>")');
    const dom = mountFake("<script>alert(1)</script>");
    expect(dom.all().map((n) => n.tag)).not.toContain("script");
    expect(dom.textContent).toBe("<script>alert(1)</script>");
  });

  it("<img onerror> ends up as literal text", () => {
    const src = '<img src=x onerror="alert(1)">';
    const dom = mountFake(src);
    expect(dom.all().map((n) => n.tag)).not.toContain("img");
    expect(dom.textContent).toBe(src);
  });

  it("markdown images produce no <img>, just a text placeholder", () => {
    const tree = parseMarkdown("![x](http://evil/x.png)");
    expect(tags(tree).has("img")).toBe(false);
    expect(plainText(tree)).toBe("[image: x]");
    expect(plainText(tree)).not.toContain("evil");
    const dom = mountFake("see ![x](http://evil/x.png) here");
    expect(dom.all().some((n) => n.tag === "img" || "src" in n.attrs)).toBe(false);
    expect(dom.textContent).toBe("see [image: x] here");
  });

  it("links produce no <a>; the URL is shown as text", () => {
    const tree = parseMarkdown("[a](javascript:alert(1))");
    expect(tags(tree).has("a")).toBe(false);
    expect(plainText(tree)).toBe("a (javascript:alert(1))");
    const dom = mountFake("go [here](https://example.com/x?a=1) now");
    expect(dom.all().some((n) => n.tag === "a" || "href" in n.attrs)).toBe(false);
    expect(dom.textContent).toBe("go here (https://example.com/x?a=1) now");
  });

  it("only allow-listed tags and no attributes (except ol start) ever appear", () => {
    for (const src of HOSTILE) {
      for (const t of tags(parseMarkdown(src))) {
        if (t !== "#text") expect(ALLOWED_TAGS.has(t), `${t} from ${src}`).toBe(true);
      }
      for (const n of mountFake(src).all()) {
        expect(["#fragment", "#text", ...ALLOWED_TAGS]).toContain(n.tag);
        expect(Object.keys(n.attrs).filter((k) => k !== "start")).toEqual([]);
      }
    }
  });

  it("fenced code keeps HTML as text", () => {
    const tree = parseMarkdown("```html\n<script>alert(1)</script>\n```");
    expect(show(tree)).toBe('pre(code("<script>alert(1)</script>"))');
  });
});

describe("formatting", () => {
  it("bold, italic and code", () => {
    expect(show(parseInline("a **b** c"))).toBe('"a " strong("b") " c"');
    expect(show(parseInline("a __b__ c"))).toBe('"a " strong("b") " c"');
    expect(show(parseInline("*it* and _it_"))).toBe('em("it") " and " em("it")');
    expect(show(parseInline("**bold *and it***"))).toBe('strong("bold " em("and it"))');
    expect(show(parseInline("use `a*b*c` here"))).toBe('"use " code("a*b*c") " here"');
    expect(show(parseInline("``a ` b``"))).toBe('code("a ` b")');
  });

  it("leaves stray and intraword markers alone", () => {
    expect(show(parseInline("snake_case_name"))).toBe('"snake_case_name"');
    expect(show(parseInline("2 * 3 * 4"))).toBe('"2 * 3 * 4"');
    expect(show(parseInline("**unclosed"))).toBe('"**unclosed"');
    expect(show(parseInline("\\*not em\\*"))).toBe('"*not em*"');
  });

  it("bullet lists", () => {
    expect(show(parseMarkdown("- one\n- **two**\n- three"))).toBe(
      'ul(li("one") li(strong("two")) li("three"))',
    );
  });

  it("numbered lists keep their start", () => {
    const tree = parseMarkdown("3. c\n4. d");
    expect(show(tree)).toBe('ol(li("c") li("d"))');
    expect(tree[0].tag === "ol" && tree[0].start).toBe(3);
  });

  it("nested lists", () => {
    expect(show(parseMarkdown("- a\n  - a1\n  - a2\n- b"))).toBe('ul(li("a" ul(li("a1") li("a2"))) li("b"))');
  });

  it("headings, paragraphs and line breaks", () => {
    expect(show(parseMarkdown("# Title\n\nline one\nline two\n\nnext"))).toBe(
      'h1("Title") p("line one" br() "line two") p("next")',
    );
  });

  it("paragraph followed directly by a list", () => {
    expect(show(parseMarkdown("Steps:\n1. first\n2. second"))).toBe('p("Steps:") ol(li("first") li("second"))');
  });

  it("unterminated fence runs to the end", () => {
    expect(show(parseMarkdown("```\ncode *x*"))).toBe('pre(code("code *x*"))');
  });

  it("mount builds the expected DOM", () => {
    const dom = mountFake("- **a**\n- b");
    const ul = dom.children[0];
    expect(ul.tag).toBe("ul");
    expect(ul.children.map((li) => li.tag)).toEqual(["li", "li"]);
    expect(ul.children[0].children[0].tag).toBe("strong");
    expect(dom.textContent).toBe("ab");
  });
});
