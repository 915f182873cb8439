// rxlive.js's pure functions under `node --test`: message parsing, paths into structs, lists and
// Swift enums, the display and truth rules, input values, and bindings applied to small stand-in
// elements (the browser tests run the same functions on the real DOM).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

// The library is a browser module (.js without a package.json saying so): load its text as a module.
const source = readFileSync(new URL("../../../Sources/RxLive/ClientScript/rxlive.js", import.meta.url));
const rx = await import(`data:text/javascript;base64,${source.toString("base64")}`);

/** A stand-in for the few element features the bindings use. */
class FakeElement {
  constructor(localName, attributes = {}, children = []) {
    this.localName = localName;
    this.attrs = new Map(Object.entries(attributes));
    this.children = children;
    this.classes = new Set();
    this.classList = { toggle: (name, on) => (on ? this.classes.add(name) : this.classes.delete(name)) };
    this.dataset = {};
    this.textContent = "";
    this.disabled = false;
    this.hidden = false;
  }
  get attributes() {
    return [...this.attrs].map(([name, value]) => ({ name, value }));
  }
  hasAttribute(name) {
    return this.attrs.has(name);
  }
  setAttribute(name, value) {
    this.attrs.set(name, String(value));
  }
  removeAttribute(name) {
    this.attrs.delete(name);
  }
  replaceChildren(...children) {
    this.children = children.flatMap((child) => (child instanceof FakeFragment ? child.children : [child]));
  }
  cloneNode() {
    const copy = new FakeElement(this.localName, Object.fromEntries(this.attrs), this.children.map((c) => c.cloneNode(true)));
    copy.content = this.content?.cloneNode(true);
    return copy;
  }
}

class FakeFragment {
  constructor(children) {
    this.children = children;
  }
  cloneNode() {
    return new FakeFragment(this.children.map((child) => child.cloneNode(true)));
  }
}

const template = (...children) => Object.assign(new FakeElement("template"), { content: new FakeFragment(children) });
const el = (attributes, ...children) => new FakeElement("div", attributes, children);
const validation = { failed: { message: "too short" } };

test("parseServerMessage keeps integers beyond 2^53 exact, and every other value as JSON has it", () => {
  assert.equal(rx.parseServerMessage('{"output":"sum","value":27670116110564327421}').value, 27670116110564327421n);
  assert.equal(rx.parseServerMessage('{"output":"sum","value":-9007199254740993}').value, -9007199254740993n);
  assert.equal(rx.parseServerMessage('{"output":"sum","value":9007199254740991}').value, 9007199254740991);
  assert.deepEqual(rx.parseServerMessage('{"output":"v","value":{"failed":{"_0":"x"}}}').value, { failed: { _0: "x" } });
  assert.deepEqual(rx.parseServerMessage('{"error":{"code":"rate_limited","message":"m","retryAfter":2}}').error,
    { code: "rate_limited", message: "m", retryAfter: 2 });
  assert.throws(() => rx.parseServerMessage("not json"));
});

test("toJSON writes a BigInt's digits where JSON.rawJSON exists", () => {
  assert.equal(rx.toJSON({ input: "n", value: "1" }), '{"input":"n","value":"1"}');
  const big = rx.toJSON({ input: "n", value: 27670116110564327421n });
  assert.equal(big, JSON.rawJSON ? '{"input":"n","value":27670116110564327421}' : '{"input":"n","value":27670116110564327000}');
});

test("paths step into structs, arrays and the present case of an enum", () => {
  assert.deepEqual(rx.parsePath("!validation.*.message"), { negate: true, path: ["validation", "*", "message"] });
  assert.deepEqual(rx.parsePath("."), { negate: false, path: [] });
  assert.equal(rx.readPath({ a: { b: [10, 20] } }, ["a", "b", "1"]), 20);
  assert.equal(rx.readPath([1, 2, 3], ["length"]), 3);
  assert.equal(rx.readPath({ a: 1 }, ["toString"]), undefined, "only the value's own keys");
  assert.equal(rx.readPath(validation, ["$case"]), "failed");
  assert.equal(rx.readPath(validation, ["*", "message"]), "too short");
  assert.equal(rx.readPath(validation, ["failed", "message"]), "too short");
  assert.equal(rx.readPath(validation, ["valid"]), undefined);
  assert.deepEqual(rx.readPath({ valid: {} }, ["valid"]), {});
  assert.equal(rx.readPath({ failed: { _0: "x" } }, ["*", "_0"]), "x");
  assert.equal(rx.readPath("cancelled", ["$case"]), "cancelled", "an enum with String raw values");
  assert.equal(rx.readPath({ a: 1, b: 2 }, ["$case"]), undefined, "a struct is no enum case");
  assert.equal(rx.readPath(null, ["a"]), undefined);
});

test("display and truth rules", () => {
  assert.deepEqual([null, undefined, "ab", 42, 27670116110564327421n, true, false].map(rx.displayText),
    ["", "", "ab", "42", "27670116110564327421", "true", "false"]);
  assert.equal(rx.displayText({ a: [1, 2n ** 64n] }), JSON.rawJSON ? '{"a":[1,18446744073709551616]}' : '{"a":[1,18446744073709552000]}');
  assert.deepEqual([false, null, undefined, 0, 0n, "", []].map(rx.isTruthy), Array(7).fill(false));
  assert.deepEqual([true, 1, -1n, "0", [0], {}, { valid: {} }].map(rx.isTruthy), Array(7).fill(true));
});

test("applyBinding drives text, enabled, visible, classes and attributes", () => {
  const node = new FakeElement("p");
  const apply = (kind, value, negate = false) => rx.applyBinding({ element: node, kind, negate }, value);
  apply("text", 3n);
  assert.equal(node.textContent, "3");
  apply("enabled", false);
  assert.equal(node.disabled, true);
  apply("visible", [1]);
  assert.equal(node.hidden, false);
  apply("visible", [1], true);
  assert.equal(node.hidden, true);
  apply("class-invalid", { failed: {} });
  assert.deepEqual([...node.classes], ["invalid"]);
  apply("class-invalid", undefined);
  assert.deepEqual([...node.classes], []);
  apply("attr-data-case", "failed");
  assert.equal(node.attrs.get("data-case"), "failed");
  apply("attr-aria-busy", true);
  assert.equal(node.attrs.get("aria-busy"), "");
  apply("attr-data-case", null);
  assert.equal(node.hasAttribute("data-case"), false);
});

test("collectBindings finds output bindings but not what a list renders", () => {
  const list = el({ "data-rx-list": "items" }, template(el({ "data-rx-text": "title" })), el({ "data-rx-text": "old" }));
  const root = el({ "data-rx-view": "v" }, el({ "data-rx-text": "a.b", "data-rx-input": "x", "data-rx-class-on": "!c" }), list);
  const found = rx.collectBindings(root).map(({ kind, negate, path }) => [kind, negate, path.join(".")]);
  assert.deepEqual(found, [["text", false, "a.b"], ["class-on", true, "c"], ["list", false, "items"]]);
});

test("a list renders one copy of its template per item, nested lists too, and replaces them", () => {
  const item = el({ "data-rx-class-done": "done" },
    el({ "data-rx-text": "title" }), el({ "data-rx-text": "state.$case", "data-rx-visible": "state.failed" }),
    el({ "data-rx-list": "tags" }, template(el({ "data-rx-text": "." }))));
  const list = el({ "data-rx-list": "todo.items" }, template(item));
  const root = el({}, list, el({ "data-rx-text": "todo.items.length" }));
  const items = [
    { title: "a", done: true, state: { valid: {} }, tags: ["x", "y"] },
    { title: "b", done: false, state: { failed: { _0: "no" } }, tags: [] },
  ];
  rx.renderOutput(root, "todo", { items });
  assert.equal(root.children[1].textContent, "2");
  assert.equal(root.children[1].dataset.stale, "false");
  const [kept, ...rendered] = list.children;
  assert.equal(kept.localName, "template", "the template stays, first");
  assert.deepEqual(rendered.map((li) => [li.classes.has("done"), li.children[0].textContent, li.children[1].textContent,
    li.children[1].hidden, li.children[2].children.slice(1).map((tag) => tag.textContent)]),
  [[true, "a", "valid", true, ["x", "y"]], [false, "b", "failed", false, []]]);

  rx.renderOutput(root, "todo", { items: [] });
  assert.deepEqual(list.children.map((child) => child.localName), ["template"]);
  rx.renderOutput(root, "other", { items });
  assert.equal(list.children.length, 1, "another output's value leaves the list alone");
});

test("inputValue sends text, checkboxes, radios, numbers and JSON as the header says", () => {
  const input = (props, dataset = {}) => Object.assign(new FakeElement("input"), { type: "text", value: "", dataset }, props);
  assert.equal(rx.inputValue(input({ value: "12abc" })), "12abc");
  assert.equal(rx.inputValue(input({ type: "checkbox", checked: true })), true);
  assert.equal(rx.inputValue(input({ type: "radio", checked: false, value: "a" })), null);
  assert.equal(rx.inputValue(input({ type: "radio", checked: true, value: "a" })), "a");
  const number = (value) => rx.inputValue(input({ value }, { rxType: "number" }));
  assert.deepEqual(["42", " -7 ", "2.5", "", "x", "Infinity", "27670116110564327421"].map(number),
    [42, -7, 2.5, null, null, null, 27670116110564327421n]);
  const field = input({ value: '{"a":[1,null]}' }, { rxType: "json" });
  assert.deepEqual(rx.inputValue(field), { a: [1, null] });
  field.value = "{oops";
  assert.equal(rx.inputValue(field), undefined, "nothing is sent while the JSON is invalid");
  assert.equal(field.attrs.get("aria-invalid"), "true");
  field.value = "null";
  assert.equal(rx.inputValue(field), null);
  assert.equal(field.hasAttribute("aria-invalid"), false);
});
