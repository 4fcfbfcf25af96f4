// Spec: 2025-11-25 server/resources "Resource Templates" (RFC 6570 URI templates); RFC 6570
// level 1 (simple string expansion, §3.2.2) and its inverse, as the server matches URIs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { expandUriTemplate, matchUriTemplate, parseUriTemplate, type UriTemplate } from "../../src/api/uri-template.js";
import { decodeCursor, encodeCursor } from "../../src/api/pagination.js";

function parse(source: string): UriTemplate {
  const t = parseUriTemplate(source);
  assert.notEqual(typeof t, "string", String(t));
  return t as UriTemplate;
}

test("RFC 6570 level 1: a template parses into literals and variable names", () => {
  const t = parse("file:///{dir}/x/{name}.txt");
  assert.deepEqual(t.parts, ["file:///", "dir", "/x/", "name", ".txt"]);
  assert.deepEqual(t.names, ["dir", "name"]);
  assert.deepEqual(parse("static://no-vars").parts, ["static://no-vars"]);
});

test("RFC 6570: anything but level 1 is refused at parse time, with the reason", () => {
  for (const [source, reason] of [
    ["a/{+path}", /level-1/],
    ["a/{?q}", /level-1/],
    ["a/{x*}", /level-1/],
    ["a/{}", /empty/],
    ["a/{x", /unclosed/],
    ["a/x}", /unbalanced/],
    ["{a}{b}", /adjacent/],
    ["{a}/{a}", /twice/],
  ] as const) {
    const r = parseUriTemplate(source);
    assert.equal(typeof r, "string", source);
    assert.match(r as string, reason, source);
  }
});

test("matching: variables take the text up to the next literal, percent-decoded", () => {
  const t = parse("test://template/{id}/data");
  assert.deepEqual({ ...matchUriTemplate(t, "test://template/123/data") }, { id: "123" });
  assert.deepEqual({ ...matchUriTemplate(t, "test://template/a%20b/data") }, { id: "a b" });
  // A malformed escape is kept as written.
  assert.deepEqual({ ...matchUriTemplate(t, "test://template/%E0%A4%A/data") }, { id: "%E0%A4%A" });
  const two = parse("x://{a}-{b}");
  assert.deepEqual({ ...matchUriTemplate(two, "x://1-2-3") }, { a: "1", b: "2-3" });
  const trailing = parse("x://{a}");
  assert.deepEqual({ ...matchUriTemplate(trailing, "x://only") }, { a: "only" });
  assert.deepEqual({ ...matchUriTemplate(parse("x://fixed"), "x://fixed") }, {});
});

test("matching: a URI of another shape does not match", () => {
  const t = parse("test://template/{id}/data");
  for (const uri of [
    "test://template/123/other", // wrong suffix
    "other://template/123/data", // wrong prefix
    "test://template//data", // empty value
    "test://template/1/2/data", // "/" inside a value
    "test://template/1?x/data", // "?" inside a value
    "test://template/1#x/data", // "#" inside a value
    "test://template/data", // suffix overlaps the prefix
  ]) {
    assert.equal(matchUriTemplate(t, uri), null, uri);
  }
  const mid = parse("x://{a}/mid/{b}.json");
  assert.equal(matchUriTemplate(mid, "x://1/nomid/2.json"), null);
  assert.equal(matchUriTemplate(parse("x://fixed"), "x://fixed/more"), null);
});

test("server/resources Security Considerations (draft): servers MUST validate all resource URIs and MUST sanitize file paths to prevent directory traversal, so a variable never decodes to a `.` or `..` segment, NUL or an absolute path", () => {
  const t = parse("file:///notes/{id}");
  for (const uri of [
    "file:///notes/..%2F..%2Fetc%2Fpasswd", // parent segments behind an encoded "/"
    "file:///notes/%2e%2e%2fsecret", // encoded dots and "/", lower case
    "file:///notes/..", // a parent segment
    "file:///notes/.", // the directory itself
    "file:///notes/%2E%2E", // a parent segment, encoded
    "file:///notes/..%5Cwin.ini", // behind an encoded backslash
    "file:///notes/a%2F..%2Fb", // in the middle
    "file:///notes/a%2F.", // at the end
    "file:///notes/a%00b", // NUL
    "file:///notes/%2Fetc%2Fpasswd", // an absolute path
    "file:///notes/%5C%5Cevil%5Cshare%5Cx", // a Windows network path
    "file:///notes/C:%5CWindows%5Cwin.ini", // a Windows drive path
  ]) {
    assert.equal(matchUriTemplate(t, uri), null, uri);
  }
  // Dots inside a name are fine, and so is an encoded "/" between ordinary segments.
  assert.deepEqual({ ...matchUriTemplate(t, "file:///notes/a..b.txt") }, { id: "a..b.txt" });
  assert.deepEqual({ ...matchUriTemplate(t, "file:///notes/...") }, { id: "..." });
  assert.deepEqual({ ...matchUriTemplate(t, "file:///notes/reports%2F2024.csv") }, { id: "reports/2024.csv" });
  // A letter and a colon is no drive path by itself (only before a separator, or alone).
  assert.deepEqual({ ...matchUriTemplate(t, "file:///notes/x%3A1") }, { id: "x:1" });
  assert.equal(matchUriTemplate(t, "file:///notes/C%3A"), null);
});

test("RFC 6570 §1.2 level 1: a value containing `/` expands percent-encoded, and that URI matches back to the value", () => {
  for (const [source, value] of [
    ["s3://bucket/{key}", "reports/2024.csv"],
    ["calc://{expr}", "1/2"],
    ["fetch://{url}", "https://example.com/a"],
    ["x://{a}/data", "a\\b"],
  ]) {
    const t = parse(source);
    const name = t.names[0];
    const uri = expandUriTemplate(t, { [name]: value });
    assert.deepEqual({ ...matchUriTemplate(t, uri) }, { [name]: value }, uri);
  }
});

test("matching: the variables object has no prototype, so names like __proto__ are plain keys", () => {
  const t = parse("x://{__proto__}");
  const v = matchUriTemplate(t, "x://polluted")!;
  assert.equal(v.__proto__, "polluted");
  assert.equal(({} as any).polluted, undefined);
});

test("RFC 6570 §3.2.2 simple string expansion: unreserved characters kept, all else percent-encoded", () => {
  const t = parse("x://{a}/{b}");
  assert.equal(expandUriTemplate(t, { a: "hello world", b: "a/b?c#d!'()*" }), "x://hello%20world/a%2Fb%3Fc%23d%21%27%28%29%2A");
  assert.equal(expandUriTemplate(t, { a: "only" }), "x://only/");
  // Expansion and matching are inverses for values without structural characters.
  const v = matchUriTemplate(t, expandUriTemplate(t, { a: "Jürgen & co", b: "1" }))!;
  assert.deepEqual({ ...v }, { a: "Jürgen & co", b: "1" });
});

test("pagination.mdx: cursors are opaque, name their list, and decode only in the exact form produced", () => {
  const c = encodeCursor("tools", 42);
  assert.doesNotMatch(c, /tools|42/);
  assert.equal(decodeCursor("tools", c), 42);
  assert.equal(decodeCursor("prompts", c), -1);
  assert.equal(decodeCursor("tools", c.replace(/=+$/, "")), -1);
  assert.equal(decodeCursor("tools", "%%%"), -1);
  assert.equal(decodeCursor("tools", btoa("tools")), -1);
  assert.equal(decodeCursor("tools", btoa("toolsX1")), -1);
  assert.equal(decodeCursor("tools", btoa("tools:-1")), -1);
});
