// Spec: 2025-11-25 server/resources "Resource Templates" (RFC 6570 URI templates); RFC 6570
// levels 1-4 and their inverse, as the server matches URIs (the RFC's own expansion suite is
// uri-template-suite.test.ts); server/resources "Security Considerations" for what never matches.
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

test("RFC 6570 §2: what the RFC does not define is refused at parse time, with the reason", () => {
  for (const [source, reason] of [
    ["a/{=x}", /reserved for extensions/],
    ["a/{x:0}", /prefix/],
    ["a/{x:2*}", /prefix/],
    ["a/{x.}", /name/],
    ["a/{-x}", /name/],
    ["a/{}", /empty/],
    ["a/{x", /unclosed/],
    ["a/x}", /unbalanced/],
  ] as const) {
    const r = parseUriTemplate(source);
    assert.equal(typeof r, "string", source);
    assert.match(r as string, reason, source);
  }
});

test("RFC 6570 levels 2-4 parse into operators and modifiers; `parts` keeps each expression's text", () => {
  const t = parse("github://repos/{owner}/{repo}/contents/{+path}{?ref,page:3}{/rest*}");
  assert.deepEqual(t.parts, ["github://repos/", "owner", "/", "repo", "/contents/", "+path", "", "?ref,page:3", "", "/rest*", ""]);
  assert.deepEqual(t.names, ["owner", "repo", "path", "ref", "page", "rest"]);
  assert.deepEqual(t.expressions[3], { operator: "?", variables: [{ name: "ref", explode: false }, { name: "page", prefix: 3, explode: false }] });
  assert.equal(t.unmatchable, undefined);
});

test("matching: templates whose URIs cannot be split back into variables parse (they expand) but say why they cannot match", () => {
  for (const [source, reason] of [
    ["{a}{b}", /adjacent/],
    ["x://{/a}{b}", /adjacent/],
    ["x://{/a,b}{/c}", /separates both/],
    ["x://{.a*}{.b}", /separates both/],
    ["{a}/{a}", /twice/],
    ["x://{/a:1,a}", /twice/],
    ["x://a{?list*}", /names are its data/],
    ["x://{/list*,b}", /must come last/],
  ] as const) {
    const t = parse(source);
    assert.match(t.unmatchable ?? "", reason, source);
    assert.equal(matchUriTemplate(t, expandUriTemplate(t, { a: "1", b: "2", c: "3", list: ["4", "5"] })), null, source);
  }
  // Leading operators make these boundaries visible.
  for (const source of ["x://{a}{/b}", "x://{/a}{/b}", "x://{.a}{.b}", "x://{+a}{?b}", "x://{?a}{&b}", "x://{;a}{;b}", "x://{/a*}{?b}"]) {
    assert.equal(parse(source).unmatchable, undefined, source);
  }
});

test("matching: variables take the text up to the next literal, percent-decoded", () => {
  const t = parse("test://template/{id}/data");
  assert.deepEqual({ ...matchUriTemplate(t, "test://template/123/data") }, { id: "123" });
  assert.deepEqual({ ...matchUriTemplate(t, "test://template/a%20b/data") }, { id: "a b" });
  // An escape that spells no UTF-8 character is kept as written, the others beside it decoded
  // (hex digits in either case, RFC 3986 §2.1), and so is a `%` that starts no escape.
  assert.deepEqual({ ...matchUriTemplate(t, "test://template/%E0%A4%A/data") }, { id: "%E0%A4%A" });
  assert.deepEqual({ ...matchUriTemplate(t, "test://template/a%20b%ff%c3%a9/data") }, { id: "a b%ffé" });
  assert.deepEqual({ ...matchUriTemplate(t, "test://template/100%25%/data") }, { id: "100%%" });
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

test("matching: percent-decoding, fast or not, keeps what it kept: escapes of either case decode, `%` starting no escape and an escape that spells no UTF-8 character stay as written", () => {
  assert.equal(matchUriTemplate(parse("x://caf%c3%a9/{+a}"), "x://caf%C3%A9/%%e2%82%ac%E0%A4%2e%zz%41%f0%9f%98%80%ed%a0%80%c0%ae")?.a, "%€%E0%A4.%zzA😀%ed%a0%80%c0%ae");
  const n = 1 << 16; // past one chunk of the decoded value's making
  assert.equal(matchUriTemplate(parse("x://{+a}"), "x://" + "%".repeat(n))?.a, "%".repeat(n));
  assert.equal(matchUriTemplate(parse("x://{+a}"), "x://" + "%41%ff".repeat(n))?.a, "A%ff".repeat(n));
});

test("RFC 6570 §3.2.2 simple string expansion: unreserved characters kept, all else percent-encoded", () => {
  const t = parse("x://{a}/{b}");
  assert.equal(expandUriTemplate(t, { a: "hello world", b: "a/b?c#d!'()*" }), "x://hello%20world/a%2Fb%3Fc%23d%21%27%28%29%2A");
  assert.equal(expandUriTemplate(t, { a: "only" }), "x://only/");
  // Expansion and matching are inverses for values without structural characters.
  const v = matchUriTemplate(t, expandUriTemplate(t, { a: "Jürgen & co", b: "1" }))!;
  assert.deepEqual({ ...v }, { a: "Jürgen & co", b: "1" });
});

test("RFC 6570 levels 2-4 matching: expanding then matching gives the variables back, per operator", () => {
  for (const [source, vars] of [
    ["file:///{+path}", { path: "docs/a/b.md" }],
    ["file:///{+path}", { path: "a b/Jürgen's notes (1).md" }],
    ["github://repos/{owner}/{repo}/contents/{+path}", { owner: "o", repo: "r", path: "src/index.ts" }],
    ["x://{+path}{?q}", { path: "a/b", q: "x y&z" }],
    ["x://{+base,rest}", { base: "a/b", rest: "c" }],
    ["x://page{#frag}", { frag: "sec 1/2" }],
    ["x://page{#frag}", {}],
    ["x://host{/seg}", { seg: "a b" }],
    ["x://host{/a,b}/end", { a: "1", b: "2" }],
    ["x://host{/a}{/b}{.ext}", { a: "x", b: "y", ext: "json" }],
    ["x://host{/a}{/b}{.ext}", { a: "x" }],
    ["x://file{.a,b}", { a: "tar", b: "gz" }],
    ["x://m{;x,y,empty}", { x: "1024", y: "768", empty: "" }],
    ["search://items{?q,limit}", { q: "cats & dogs", limit: "10" }],
    ["search://items{?q,limit}", { limit: "10" }],
    ["search://items{?q,limit}", {}],
    ["search://items{?q,limit}", { q: "" }],
    ["x://a?fixed=yes{&x,y}", { y: "2" }],
    ["x://a{?q}{&page}", { q: "z", page: "2" }],
    ["x://a{?q}{&page}", { page: "2" }],
    ["x://{id:3}/data", { id: "abc" }],
    ["x://{x,y}", { x: "1024", y: "768" }],
    ["café/{var}", { var: "é" }],
  ] as const) {
    const t = parse(source);
    const uri = expandUriTemplate(t, vars);
    assert.deepEqual({ ...matchUriTemplate(t, uri) }, vars, `${source} -> ${uri}`);
  }
});

test("RFC 6570 matching: an optional expression before a literal that starts with its own leading character (`{/ver}/{id}`), present or absent; `{.ext}` takes a label holding dots; an encoded literal matches with lower-case hex", () => {
  const versioned = parse("x://host{/ver}/{id}");
  assert.deepEqual({ ...matchUriTemplate(versioned, expandUriTemplate(versioned, { ver: "v1", id: "5" })) }, { ver: "v1", id: "5" });
  assert.deepEqual({ ...matchUriTemplate(versioned, "x://host/5") }, { id: "5" });
  assert.deepEqual({ ...matchUriTemplate(parse("repo://r{/branch}/{+path}"), "repo://r/main/src/a.ts") }, { branch: "main", path: "src/a.ts" });
  assert.deepEqual({ ...matchUriTemplate(parse("x://p{?a}?{b}"), "x://p?a=1?2") }, { a: "1", b: "2" });
  assert.deepEqual({ ...matchUriTemplate(parse("files://{name}{.ext}"), "files://archive.tar.gz") }, { name: "archive", ext: "tar.gz" });
  const cafe = parse("x://café/{x}");
  assert.equal(expandUriTemplate(cafe, { x: "1" }), "x://caf%C3%A9/1");
  assert.deepEqual({ ...matchUriTemplate(cafe, "x://caf%c3%a9/1") }, { x: "1" });
  // A template whose own literal has lower-case escapes matches its expansion and either case.
  for (const source of ["file:///a%2fb/{id}", "file:///r%c3%a9/{id}"]) {
    const t = parse(source);
    const written = source.replace("{id}", "x");
    for (const uri of [expandUriTemplate(t, { id: "x" }), written, written.replace(/%[0-9a-f]{2}/g, (e) => e.toUpperCase())]) {
      assert.deepEqual({ ...matchUriTemplate(t, uri) }, { id: "x" }, `${source} against ${uri}`);
    }
  }
  // A value's escape that spells nothing comes back as the client wrote it.
  assert.deepEqual({ ...matchUriTemplate(parse("x://h/{a}"), "x://h/ab%ff") }, { a: "ab%ff" });
});

test("RFC 6570 matching: query pairs in any order, absent ones absent, unknown or repeated names do not match", () => {
  const t = parse("search://items{?q,limit}");
  assert.deepEqual({ ...matchUriTemplate(t, "search://items?limit=5&q=a") }, { q: "a", limit: "5" });
  assert.deepEqual({ ...matchUriTemplate(t, "search://items?q") }, { q: "" });
  for (const uri of ["search://items?x=1", "search://items?q=a&q=b", "search://items?", "search://items?q=a&", "search://items?q=a#f", "search://itemsX", "search://items&q=a"]) {
    assert.equal(matchUriTemplate(t, uri), null, uri);
  }
  // `{/path*}` takes the remaining segments as one string; a non-exploded `{/x}` one segment.
  assert.deepEqual({ ...matchUriTemplate(parse("x://r{/path*}"), "x://r/a/b%20c/d") }, { path: "a/b c/d" });
  assert.deepEqual({ ...matchUriTemplate(parse("x://r{/path*}{?v}"), "x://r/a/b?v=1") }, { path: "a/b", v: "1" });
  assert.equal(matchUriTemplate(parse("x://r{/x}"), "x://r/a/b"), null);
  assert.deepEqual({ ...matchUriTemplate(parse("x://r{/x}"), "x://r") }, {});
  // A prefix bounds the value's length; `{x}` and `{+x}` stay required.
  assert.equal(matchUriTemplate(parse("x://{id:3}/data"), "x://abcd/data"), null);
  assert.equal(matchUriTemplate(parse("file:///{+path}"), "file:///"), null);
  // Reserved expansion keeps "/", "?", "#": the level-1 `{x}` does not.
  assert.deepEqual({ ...matchUriTemplate(parse("x://{+x}"), "x://a/b?c#d") }, { x: "a/b?c#d" });
  assert.equal(matchUriTemplate(parse("x://{x}"), "x://a/b"), null);
});

test("server/resources Security Considerations: the traversal refusals hold for the decoded values of every operator", () => {
  for (const [source, uris] of [
    ["file:///{+path}", ["file:///../etc/passwd", "file:///a/../../b", "file:///%2e%2e/x", "file:///..%5Cwin.ini", "file:////etc/passwd", "file:///%2Fetc", "file:///C:/Windows", "file:///C:%5CWindows", "file:///a%00b", "file:///./a", "file:///a/.", "file:///.."]],
    ["x://repo/contents/{+path}{?ref}", ["x://repo/contents/../../secrets?ref=main", "x://repo/contents/a?ref=.."]],
    ["x://root{/path*}", ["x://root/../etc", "x://root/a/../../b", "x://root/%2e%2e/b", "x://root//etc/passwd", "x://root/a/%00"]],
    ["x://root{/a,b}", ["x://root/a/..", "x://root/%2E/b"]],
    ["x://f{?path}", ["x://f?path=../x", "x://f?path=%2Fetc%2Fpasswd", "x://f?path=a%00"]],
    ["x://d{#frag}", ["x://d#../x", "x://d#/etc/passwd"]],
    ["x://d{.ext}", ["x://d.%2e%2e", "x://d.%2E"]],
    ["x://d{;p}", ["x://d;p=..", "x://d;p=%2e%2e%2fx"]],
    // One escape that spells no character does not leave the others undecoded for the check to miss.
    ["file:///{+path}", ["file:///%2e%2e/%2e%2e/etc/passwd#%ff", "file:///%2e%2e%2f%ff"]],
    ["doc://r/{x}", ["doc://r/%2e%2e%2f%2e%2e%2fetc%2fpasswd%ff", "doc://r/%ff%2f%2e%2e"]],
    ["x://f{?p}", ["x://f?p=%2e%2e%2f%ff"]],
  ] as const) {
    const t = parse(source);
    for (const uri of uris) assert.equal(matchUriTemplate(t, uri), null, `${source}: ${uri}`);
  }
  // The same templates still match ordinary values.
  assert.deepEqual({ ...matchUriTemplate(parse("file:///{+path}"), "file:///a..b/.config/x") }, { path: "a..b/.config/x" });
  assert.deepEqual({ ...matchUriTemplate(parse("x://root{/path*}"), "x://root/a/b") }, { path: "a/b" });
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
