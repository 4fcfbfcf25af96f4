// Spec: 2025-11-25 server/resources (capabilities, listing, reading, templates,
// subscriptions, list changed, error handling); draft server/resources (error handling).
import { test } from "node:test";
import assert from "node:assert/strict";
import { connect, rejection } from "./setup.js";
import { resourceNotFoundCode } from "../../src/api/server.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { McpError } from "../../src/driver/endpoint.js";
import { blockText } from "../harness/content.js";

const text = (uri: string, t: string) => ({ contents: [{ uri, mimeType: "text/plain", text: t }] });

function library(s: import("../../src/api/server.js").McpServer) {
  s.resource("file:///readme", { name: "readme", title: "Read me", description: "the readme", mimeType: "text/plain", size: 5 }, (uri) => text(uri, "hello"));
  s.resource("file:///logo", { name: "logo", mimeType: "image/png" }, (uri) => ({ contents: [{ uri, mimeType: "image/png", blob: "AAAA" }] }));
  s.resourceTemplate("notes://{owner}/note/{id}", { name: "note", description: "a note", mimeType: "text/plain" }, (uri, v) => (v.id === "missing" ? undefined : text(uri, `${v.owner}#${v.id}`)));
}

test("resources.mdx: servers that support resources MUST declare the resources capability, with subscribe and listChanged", async () => {
  const c = await connect(library);
  assert.deepEqual(c.client.serverCapabilities!.resources, { subscribe: true, listChanged: true });
  const bare = await connect(library, {}, { subscribe: false, listChanged: false });
  assert.deepEqual(bare.client.serverCapabilities!.resources, {});
  // A template alone is a resource feature too.
  const tpl = await connect((s) => s.resourceTemplate("x://{a}", { name: "x" }, () => undefined));
  assert.ok(tpl.client.serverCapabilities!.resources);
  // Without the subscribe feature the client may not subscribe (-32601 from its own kernel).
  assert.equal((await rejection(bare.client.subscribeResource("file:///readme"))).code, ErrorCode.MethodNotFound);
});

test("resources.mdx Listing Resources: direct resources in registration order; templates listed apart", async () => {
  const { client } = await connect(library);
  const { resources } = await client.listResources();
  assert.deepEqual(resources, [
    { uri: "file:///readme", name: "readme", title: "Read me", description: "the readme", mimeType: "text/plain", size: 5 },
    { uri: "file:///logo", name: "logo", mimeType: "image/png" },
  ]);
  const { resourceTemplates } = await client.listResourceTemplates();
  assert.deepEqual(resourceTemplates, [{ uriTemplate: "notes://{owner}/note/{id}", name: "note", description: "a note", mimeType: "text/plain" }]);
  const all = [];
  for await (const r of client.iterateResources()) all.push(r.uri);
  for await (const t of client.iterateResourceTemplates()) all.push(t.uriTemplate);
  assert.deepEqual(all, ["file:///readme", "file:///logo", "notes://{owner}/note/{id}"]);
});

test("resources.mdx Reading Resources: text and blob contents", async () => {
  const { client } = await connect(library);
  assert.deepEqual(await client.readResource("file:///readme"), text("file:///readme", "hello"));
  const logo = (await client.readResource("file:///logo")).contents[0];
  assert.equal("blob" in logo ? logo.blob : undefined, "AAAA");
});

test("resources.mdx Resource Templates: a URI matching a template reaches its reader with the variables, percent-decoded", async () => {
  const { client } = await connect(library);
  assert.deepEqual(await client.readResource("notes://ada/note/42"), text("notes://ada/note/42", "ada#42"));
  assert.equal(blockText((await client.readResource("notes://J%C3%BCrgen/note/7")).contents[0]), "Jürgen#7");
  // A value cannot span a "/": this URI has a different shape, so it is not found.
  assert.equal((await rejection(client.readResource("notes://a/b/note/1"))).code, ErrorCode.ResourceNotFound);
});

test("resources.mdx Error Handling (2025-11-25): resource not found is -32002, with the uri in data", async () => {
  const { client } = await connect(library);
  for (const uri of ["file:///nope", "notes://ada/note/missing"]) {
    const e = await rejection(client.readResource(uri));
    assert.equal(e.code, ErrorCode.ResourceNotFound);
    assert.equal(e.message, "Resource not found");
    assert.deepEqual(e.data, { uri });
  }
});

test("draft resources.mdx Error Handling: end to end, a modern request for a missing resource gets -32602 (basic/index: -32002 MUST NOT be emitted), and a handler reads the request's own version", async () => {
  let seen: string | undefined;
  const { client } = await connect(
    (s) => {
      library(s);
      s.tool("version", {}, (_args, ctx) => ((seen = ctx.protocolVersion), { content: [] }));
    },
    { session: { versions: ["2026-07-28"] } },
    { session: { versions: ["2026-07-28", "2025-11-25"] } },
  );
  assert.equal(client.protocolVersion, "2026-07-28");
  const e = await rejection(client.readResource("file:///nope"));
  assert.equal(e.code, ErrorCode.InvalidParams);
  assert.deepEqual(e.data, { uri: "file:///nope" });
  await client.callTool("version");
  assert.equal(seen, "2026-07-28");
});

test("draft resources.mdx Error Handling: servers MUST return -32602 for a resource that does not exist (from 2026-07-28)", () => {
  assert.equal(resourceNotFoundCode("2026-07-28"), ErrorCode.InvalidParams);
  assert.equal(resourceNotFoundCode("2025-11-25"), ErrorCode.ResourceNotFound);
  assert.equal(resourceNotFoundCode("2024-11-05"), ErrorCode.ResourceNotFound);
  assert.equal(resourceNotFoundCode(undefined), ErrorCode.ResourceNotFound);
});

test("resources: a reader's failure is an internal error; an McpError keeps its code", async () => {
  const { client } = await connect((s) => {
    s.resource("x://broken", { name: "broken" }, () => {
      throw new Error("disk on fire");
    });
  });
  const e = await rejection(client.readResource("x://broken"));
  assert.equal(e.code, ErrorCode.InternalError);
  assert.match(e.message, /disk on fire/);
});

test("resources.mdx Subscriptions: subscribe, receive notifications/resources/updated, unsubscribe stops them", async () => {
  const c = await connect(library);
  const updates: unknown[] = [];
  c.client.onNotification("notifications/resources/updated", (p) => updates.push(p));
  await c.client.subscribeResource("file:///readme");
  await c.client.subscribeResource("notes://ada/note/1");
  c.server.notifyResourceUpdated("file:///readme");
  c.server.notifyResourceUpdated("file:///logo"); // not subscribed: nothing sent
  c.server.notifyResourceUpdated("notes://ada/note/1");
  await c.client.ping();
  assert.deepEqual(updates, [{ uri: "file:///readme" }, { uri: "notes://ada/note/1" }]);
  await c.client.unsubscribeResource("file:///readme");
  c.server.notifyResourceUpdated("file:///readme");
  await c.client.ping();
  assert.equal(updates.length, 2);
});

test("resources subscriptions: only the client that subscribed is told", async () => {
  const a = await connect(library);
  const b = await connect(a.server);
  await a.client.subscribeResource("file:///readme");
  a.server.notifyResourceUpdated("file:///readme");
  await a.client.ping();
  await b.client.ping();
  assert.equal(a.sent("server", "notifications/resources/updated").length, 1);
  assert.equal(b.sent("server", "notifications/resources/updated").length, 0);
});

test("resources.mdx List Changed Notification: adding or removing a resource or template notifies once per burst", async () => {
  const c = await connect(library);
  let n = 0;
  c.client.onNotification("notifications/resources/list_changed", () => n++);
  const off = c.server.resource("file:///new", { name: "new" }, (uri) => text(uri, "new"));
  const offT = c.server.resourceTemplate("t://{x}", { name: "t" }, () => undefined);
  await c.client.ping();
  assert.equal(n, 1);
  off();
  off();
  offT();
  offT();
  await c.client.ping();
  assert.equal(n, 2);
  assert.equal((await c.client.listResources()).resources.length, 2);
});

test("resources registration: duplicates, templates that are not RFC 6570 and templates no URI could be matched to are refused", async () => {
  const c = await connect(library);
  assert.throws(() => c.server.resource("file:///readme", { name: "again" }, () => undefined), /already registered/);
  assert.throws(() => c.server.resourceTemplate("notes://{owner}/note/{id}", { name: "again" }, () => undefined), /already registered/);
  assert.throws(() => c.server.resourceTemplate("file:///{=path}", { name: "p" }, () => undefined), /invalid URI template.*reserved for extensions/);
  assert.throws(() => c.server.resourceTemplate("x://{a}{b}", { name: "ab" }, () => undefined), /cannot be matched.*adjacent/);
  assert.throws(() => c.server.resourceTemplate("x://s{?tags*}", { name: "tags" }, () => undefined), /cannot be matched/);
});

test("resources.mdx Resource Templates (RFC 6570 levels 2-4): reserved, path and query expressions route reads end to end, traversal refused", async () => {
  const seen: Record<string, string>[] = [];
  const { client } = await connect((s) => {
    s.resourceTemplate("file:///{+path}", { name: "file" }, (uri, v) => (seen.push({ ...v }), text(uri, `file ${v.path}`)));
    s.resourceTemplate("search://items{?q,limit}", { name: "search" }, (uri, v) => (seen.push({ ...v }), text(uri, `search ${JSON.stringify(v)}`)));
    s.resourceTemplate("github://repos/{owner}/{repo}/contents{/path*}", { name: "gh" }, (uri, v) => (seen.push({ ...v }), text(uri, "gh")));
  });
  assert.equal(blockText((await client.readResource("file:///docs/a/b.md")).contents[0]), "file docs/a/b.md");
  for (const uri of ["search://items?q=cats&limit=5", "search://items?limit=5&q=cats", "search://items?q=cats", "search://items?limit=5", "search://items"]) {
    assert.equal((await client.readResource(uri)).contents[0].uri, uri);
  }
  await client.readResource("github://repos/o/r/contents/src/a%20b.ts");
  assert.deepEqual(seen, [
    { path: "docs/a/b.md" },
    { q: "cats", limit: "5" },
    { q: "cats", limit: "5" },
    { q: "cats" },
    { limit: "5" },
    {},
    { owner: "o", repo: "r", path: "src/a b.ts" },
  ]);
  for (const uri of ["file:///../etc/passwd", "file:///docs/%2e%2e/%2e%2e/etc/passwd", "file:////etc/passwd", "search://items?q=..", "search://items?other=1", "github://repos/o/r/contents/../../x"]) {
    assert.equal((await rejection(client.readResource(uri))).code, ErrorCode.ResourceNotFound, uri);
  }
  assert.equal(seen.length, 7);
});

test("resources.mdx Security Considerations (servers MUST validate all resource URIs): a resources/read URI of a megabyte of `%` or escapes is matched and decoded as a short one is, against many templates", async () => {
  // Such URIs were upper-cased and decoded a character at a time for every template tried (a
  // second of garbage collection each, matched or not). The cost, per read flat as templates
  // are added, is the bench's row ("growth/hostile resources/read … templates sweep"), never a
  // timed test; this holds what such a read answers.
  const { client } = await connect((s) => {
    for (const t of ["x://h{?a,b}", "x://{+a}/raw{?r}", "x://{a}.{b}{?q}", "x://{/p*}", "x://{a}/{b}"]) s.resourceTemplate(t, { name: t }, () => undefined);
    for (let i = 0; i < 15; i++) s.resourceTemplate(`z${i}://{+a}`, { name: `z${i}` }, () => undefined);
    s.resourceTemplate("x://{+a}", { name: "all" }, (_uri, v) => text("x://all", `${v.a.length}:${v.a.slice(0, 6)}`));
  });
  const n = (1 << 20) / 4;
  // A lone `%` and an escape that is no UTF-8 are kept as written; `%41` decodes to `A`.
  for (const [uri, answer] of [["x://" + "%".repeat(3 * n), `${3 * n}:%%%%%%`], ["x://" + "%ff".repeat(n), `${3 * n}:%ff%ff`], ["x://" + "%41".repeat(n), `${n}:AAAAAA`]]) {
    assert.equal(blockText((await client.readResource(uri)).contents[0]), answer);
  }
});

test("pagination.mdx: resource and template lists paginate with their own cursors", async () => {
  const c = await connect(
    (s) => {
      for (let i = 0; i < 3; i++) s.resource(`x://${i}`, { name: `r${i}` }, () => undefined);
      for (let i = 0; i < 3; i++) s.resourceTemplate(`y://${i}/{v}`, { name: `t${i}` }, () => undefined);
    },
    {},
    { pageSize: 2 },
  );
  const r1 = await c.client.listResources();
  assert.equal(r1.resources.length, 2);
  assert.equal((await c.client.listResources(r1.nextCursor)).resources.length, 1);
  const t1 = await c.client.listResourceTemplates();
  assert.equal(t1.resourceTemplates.length, 2);
  assert.equal((await rejection(c.client.listResourceTemplates(r1.nextCursor))).code, ErrorCode.InvalidParams);
  assert.equal((await c.client.listResourceTemplates(t1.nextCursor)).resourceTemplates.length, 1);
});

// A template's `list` (what the official SDK's ResourceTemplate `list` callback does):
// 2025-11-25 server/resources "Listing Resources" lists the resources a server offers,
// and basic/utilities/pagination pages them.

/** Static resources x://0..x://{statics-1}, then templates whose `list` names the resources given. */
function listing(statics: number, ...lists: string[][]) {
  return (s: import("../../src/api/server.js").McpServer) => {
    for (let i = 0; i < statics; i++) s.resource(`x://${i}`, { name: `x${i}` }, () => undefined);
    lists.forEach((uris, i) => s.resourceTemplate(`t${i}://{id}`, { name: `t${i}`, list: () => uris.map((uri) => ({ uri, name: uri, mimeType: "text/plain" })) }, () => undefined));
  };
}

async function allPages(c: import("./setup.js").Connected): Promise<{ uris: string[]; pages: number }> {
  const uris: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const r = await c.client.listResources(cursor);
    pages++;
    uris.push(...r.resources.map((x) => x.uri));
    cursor = r.nextCursor;
  } while (cursor !== undefined);
  return { uris, pages };
}

test("resources.mdx Listing Resources: a template's list names its resources, listed after the static resources; not sent in resources/templates/list", async () => {
  const c = await connect((s) => {
    // The template is registered first: listed resources still follow every static one.
    s.resourceTemplate("file:///{path}", { name: "file", list: () => [{ uri: "file:///a.txt", name: "a.txt", mimeType: "text/plain", size: 3 }] }, () => undefined);
    library(s);
  });
  const { resources } = await c.client.listResources();
  assert.deepEqual(
    resources.map((r) => r.uri),
    ["file:///readme", "file:///logo", "file:///a.txt"],
  );
  assert.deepEqual(resources[2], { uri: "file:///a.txt", name: "a.txt", mimeType: "text/plain", size: 3 });
  const { resourceTemplates } = await c.client.listResourceTemplates();
  assert.deepEqual(resourceTemplates[0], { uriTemplate: "file:///{path}", name: "file" });
});

test("resources.mdx Listing Resources: several templates' lists follow in template registration order; one without list adds nothing", async () => {
  const c = await connect((s) => {
    listing(1, ["t0://a", "t0://b"], [], ["t2://c"])(s);
    s.resourceTemplate("none://{id}", { name: "none" }, () => undefined);
    s.resourceTemplate("t4://{id}", { name: "t4", list: () => [{ uri: "t4://d", name: "d" }] }, () => undefined);
  });
  assert.deepEqual(
    (await c.client.listResources()).resources.map((r) => r.uri),
    ["x://0", "t0://a", "t0://b", "t2://c", "t4://d"],
  );
});

test("pagination.mdx: resources/list pages across static and listed resources, every resource once, with no empty last page", async () => {
  const expected = ["x://0", "x://1", "x://2", "t0://a", "t0://b", "t2://c", "t2://d", "t2://e"];
  for (const pageSize of [1, 2, 3, 4]) {
    const c = await connect(listing(3, ["t0://a", "t0://b"], [], ["t2://c", "t2://d", "t2://e"]), {}, { pageSize });
    const { uris, pages } = await allPages(c);
    assert.deepEqual(uris, expected, `pageSize ${pageSize}`);
    // A nextCursor means more results exist: the last page is never empty.
    assert.equal(pages, Math.ceil(expected.length / pageSize), `pageSize ${pageSize}`);
  }
  // Unlimited: one page.
  const one = await connect(listing(3, ["t0://a"]));
  assert.deepEqual(await allPages(one), { uris: ["x://0", "x://1", "x://2", "t0://a"], pages: 1 });
  // Only listed resources, no static one.
  const only = await connect(listing(0, ["t0://a", "t0://b"], ["t1://c"]), {}, { pageSize: 2 });
  assert.deepEqual(await allPages(only), { uris: ["t0://a", "t0://b", "t1://c"], pages: 2 });
});

test("pagination.mdx: a cursor into listed resources is a resources/list cursor: refused by resources/templates/list, and a tampered one is -32602", async () => {
  const c = await connect(listing(1, ["t0://a", "t0://b"]), {}, { pageSize: 2 });
  const p1 = await c.client.listResources();
  const p2 = await c.client.listResources(p1.nextCursor);
  assert.deepEqual(p2.resources.map((r) => r.uri), ["t0://b"]);
  assert.equal((await rejection(c.client.listResourceTemplates(p1.nextCursor))).code, ErrorCode.InvalidParams);
  const tampered = btoa(atob(p1.nextCursor!).replace(/:(\d+)$/, ":0$1"));
  assert.equal((await rejection(c.client.listResources(tampered))).code, ErrorCode.InvalidParams);
});

test("pagination.mdx: stable cursors: removing a template already listed does not make the next page skip or repeat", async () => {
  const c = await connect((s) => s.resource("x://0", { name: "x0" }, () => undefined), {}, { pageSize: 2 });
  const drop = c.server.resourceTemplate("a://{id}", { name: "a", list: () => [{ uri: "a://1", name: "1" }] }, () => undefined);
  c.server.resourceTemplate("b://{id}", { name: "b", list: () => [{ uri: "b://1", name: "1" }, { uri: "b://2", name: "2" }] }, () => undefined);
  const p1 = await c.client.listResources();
  assert.deepEqual(p1.resources.map((r) => r.uri), ["x://0", "a://1"]);
  drop();
  const p2 = await c.client.listResources(p1.nextCursor);
  assert.deepEqual(p2.resources.map((r) => r.uri), ["b://1", "b://2"]);
  assert.equal(p2.nextCursor, undefined);
});

test("resources.mdx Listing Resources: an async list, given the request's context", async () => {
  let version: string | undefined;
  const c = await connect(
    (s) => {
      s.resource("x://0", { name: "x0" }, () => undefined);
      s.resourceTemplate("db://{id}", { name: "row", list: async (ctx) => ((version = ctx.protocolVersion), await Promise.resolve(), [{ uri: "db://1", name: "row 1" }]) }, () => undefined);
    },
    {},
    { pageSize: 1 },
  );
  assert.deepEqual((await allPages(c)).uris, ["x://0", "db://1"]);
  assert.equal(version, c.client.protocolVersion);
});

test("resources.mdx Listing Resources: a list that throws fails resources/list (-32603, or its McpError's code); the server keeps serving", async () => {
  let fail = true;
  let dropZ = () => {};
  const c = await connect((s) => {
    s.resource("x://0", { name: "x0" }, () => undefined);
    s.resourceTemplate("y://{id}", { name: "y", list: () => { if (fail) throw new Error("index unavailable"); return [{ uri: "y://1", name: "1" }]; } }, () => undefined);
    dropZ = s.resourceTemplate("z://{id}", { name: "z", list: async () => Promise.reject(new McpError({ code: ErrorCode.InvalidParams, message: "not now" })) }, () => undefined);
  });
  const e = await rejection(c.client.listResources());
  assert.equal(e.code, ErrorCode.InternalError);
  assert.match(e.message, /index unavailable/);
  fail = false;
  const z = await rejection(c.client.listResources());
  assert.equal(z.code, ErrorCode.InvalidParams);
  assert.equal(z.message, "not now");
  assert.deepEqual((await c.client.listResourceTemplates()).resourceTemplates.map((t) => t.name), ["y", "z"]);
  dropZ();
  assert.deepEqual((await c.client.listResources()).resources.map((r) => r.uri), ["x://0", "y://1"]);
});

test("resources.mdx Listing Resources: an invalid listed resource is the server's fault: -32603 naming the field", async () => {
  const bad: unknown[][] = [[{ uri: "y://1" }], [{ uri: 7, name: "seven" }], ["y://1"]];
  for (const [i, entries] of bad.entries()) {
    const c = await connect((s) => {
      s.resource("x://0", { name: "x0" }, () => undefined);
      s.resourceTemplate("y://{id}", { name: "y", list: () => entries as never }, () => undefined);
    });
    const e = await rejection(c.client.listResources());
    assert.equal(e.code, ErrorCode.InternalError, `case ${i}`);
    assert.match(e.message, /resource template y:\/\/\{id\} listed an invalid resource/, `case ${i}`);
    if (i === 0) assert.match(e.message, /missing required property "name"/);
    if (i === 1) assert.match(e.message, /\/uri/);
    assert.equal(e.data.uriTemplate, "y://{id}");
  }
  // Not an array at all.
  const c = await connect((s) => s.resourceTemplate("y://{id}", { name: "y", list: () => ({ uri: "y://1", name: "1" }) as never }, () => undefined));
  const e = await rejection(c.client.listResources());
  assert.equal(e.code, ErrorCode.InternalError);
  assert.match(e.message, /returned no array/);
});

// Draft server/resources (2026-07-28): a ListResourcesResult also carries `resultType`,
// `ttlMs` and `cacheScope`, which the kernel stamps on the answer: a listed resource is
// judged as an entry of that list, not as a whole result.
test("draft server/resources Listing Resources: a modern client gets a template's listed resources too", async () => {
  const c = await connect(
    (s) => {
      s.resource("x://0", { name: "x0" }, () => undefined);
      s.resourceTemplate("y://{id}", { name: "y", list: () => [{ uri: "y://1", name: "one" }] }, () => undefined);
    },
    { session: { versions: ["2026-07-28"] } },
    { session: { versions: ["2026-07-28", "2025-11-25"] } },
  );
  assert.deepEqual((await c.client.listResources()).resources.map((r) => r.uri), ["x://0", "y://1"]);
});

// server/resources: a Resource's `uri` is `format: uri`, a ResourceTemplate's `uriTemplate`
// a string, both lists' items hold their required fields. A registered definition that no
// listing could carry would fail every resources/list (the server's outgoing check answers
// -32603): it is refused at registration, naming the version and the field, as a tool's is.
test("resources.mdx, prompts.mdx: a resource, template or prompt definition a served version's schema refuses is a TypeError at registration, naming the version and field", async () => {
  const { McpServer } = await import("../../src/api/server.js");
  const s = new McpServer({ name: "s", version: "1" }, { session: { versions: ["2026-07-28", "2025-11-25"] } });
  assert.throws(() => s.resource("notes", { name: "n" }, () => undefined), (e: Error) => e instanceof TypeError && /resource "notes" cannot be listed to 2026-07-28 clients.*\/uri/.test(e.message));
  assert.throws(
    () => s.resource("x://1", { name: "n", icons: [{ src: "./logo.svg" }] }, () => undefined),
    (e: Error) => e instanceof TypeError && /cannot be listed to .* clients.*\/icons\/0\/src/.test(e.message),
  );
  assert.throws(
    () => s.resourceTemplate("x://{id}", { name: "t", mimeType: 7 as never }, () => undefined),
    (e: Error) => e instanceof TypeError && /resource template "x:\/\/\{id\}" cannot be listed.*\/mimeType/.test(e.message),
  );
  // Prompts likewise (server/prompts: an argument has a string name).
  assert.throws(() => s.prompt("p", { arguments: [{ name: 7 as never }] }, () => ({ messages: [] })), (e: Error) => e instanceof TypeError && /prompt "p" cannot be listed.*\/arguments\/0\/name/.test(e.message));
  // Nothing refused was registered; a valid definition still is.
  s.resource("x://1", { name: "n" }, () => undefined);
  const c = await connect(s);
  assert.deepEqual((await c.client.listResources()).resources.map((r) => r.uri), ["x://1"]);
  assert.deepEqual((await c.client.listResourceTemplates()).resourceTemplates, []);
  assert.equal(c.client.serverCapabilities!.prompts, undefined, "no prompt was registered, so none is declared");
});

test("resources.mdx Security Considerations (binary data MUST be properly encoded): a reader's blob that is not base64 is not sent (-32603 naming the field), and a client refuses one from a server that does not check what it sends", async () => {
  const bad = (s: import("../../src/api/server.js").McpServer) => s.resource("file:///bin", { name: "bin" }, (uri) => ({ contents: [{ uri, mimeType: "application/octet-stream", blob: "not base64!" }] }));
  const checked = await connect(bad);
  const e = await rejection(checked.client.readResource("file:///bin"));
  assert.equal(e.code, ErrorCode.InternalError);
  assert.match(e.message, /\/contents\/0\/blob: expected base64 data/);
  assert.equal(checked.wire.some((w) => JSON.stringify(w.message).includes("not base64!")), false, "never on the wire");
  const unchecked = await connect(bad, {}, { session: { validateOutgoing: false } });
  const refused = await rejection(unchecked.client.readResource("file:///bin"));
  assert.equal(refused.code, ErrorCode.InternalError);
  assert.equal(refused.fromPeer, false, "the client's own refusal of the result");
  assert.equal(unchecked.wire.some((w) => JSON.stringify(w.message).includes("not base64!")), true, "the server sent it");
});
