// Spec: draft server/utilities/caching ("Servers MUST include caching hints on results
// with resultType: "complete"" of the cacheable methods; "Servers MUST provide a ttlMs
// value that is >= 0"; "Interim results with resultType: "input_required" … are not
// cacheable and carry no caching hints").
import { test } from "node:test";
import assert from "node:assert/strict";
import { connect } from "./setup.js";
import { McpServer, McpServerCore } from "../../src/api/server.js";
import { inputRequired } from "../../src/api/mrtr.js";

const MODERN = { session: { versions: ["2026-07-28" as const] } };
const INFO = { name: "s", version: "1" };

test("caching: the server's default hints are checked when it is built (ttlMs MUST be >= 0, an integer; cacheScope public or private), not on every cacheable request", () => {
  for (const Server of [McpServer, McpServerCore]) {
    for (const cacheTtlMs of [-5, 1.5, Number.NaN, Infinity]) {
      assert.throws(() => new Server(INFO, { session: { ...MODERN.session, cacheTtlMs } }), (e: unknown) => e instanceof RangeError && /session\.cacheTtlMs must be a non-negative integer/.test(e.message), String(cacheTtlMs));
    }
    assert.throws(() => new Server(INFO, { session: { ...MODERN.session, cacheScope: "shared" as never } }), (e: unknown) => e instanceof TypeError && /session\.cacheScope must be "public" or "private"/.test(e.message));
    // Valid settings are taken as they are.
    new Server(INFO, { session: { ...MODERN.session, cacheTtlMs: 0, cacheScope: "public" } });
  }
});

test("caching: a valid default lands on every cacheable complete result", async () => {
  const c = await connect((s) => s.tool("t", {}, () => ({ content: [] })), MODERN, { session: { ...MODERN.session, cacheTtlMs: 30_000, cacheScope: "public" } });
  await c.client.listTools();
  const [list] = c.wire.filter((w) => w.from === "server" && (w.message.result?.tools !== undefined));
  assert.equal(list.message.result.ttlMs, 30_000);
  assert.equal(list.message.result.cacheScope, "public");
});

test("caching: an input_required result goes out without the caching hints its handler put on it (interim results carry none); the completed retry is stamped as usual", async () => {
  const form = { method: "elicitation/create" as const, params: { message: "Name?", requestedSchema: { type: "object" as const, properties: { a: { type: "string" as const } } } } };
  const c = await connect(
    (s) => {
      s.tool("ask", {}, (_a, ctx) => (ctx.inputResponses === undefined ? { ...inputRequired({ k: form }), ttlMs: 5, cacheScope: "public" } : { content: [{ type: "text", text: "done" }] }));
      s.resource("note://n", { name: "n" }, (_u, ctx) => (ctx.inputResponses === undefined ? { ...inputRequired({ k: form }), ttlMs: 5, cacheScope: "public" } : { contents: [{ uri: "note://n", text: "done" }] }));
    },
    { ...MODERN, handlers: { elicitation: () => ({ action: "accept", content: { a: "x" } }) } },
    MODERN,
  );
  assert.deepEqual((await c.client.callTool("ask")).content, [{ type: "text", text: "done" }]);
  assert.deepEqual((await c.client.readResource("note://n")).contents, [{ uri: "note://n", text: "done" }]);
  const results = c.wire.filter((w) => w.from === "server" && w.message.result !== undefined).map((w) => w.message.result);
  const interim = results.filter((r) => r.resultType === "input_required");
  assert.equal(interim.length, 2);
  for (const r of interim) {
    assert.equal(Object.hasOwn(r, "ttlMs"), false);
    assert.equal(Object.hasOwn(r, "cacheScope"), false);
  }
  // resources/read is cacheable: its complete answer gets the defaults (0, private).
  const read = results.find((r) => r.contents !== undefined);
  assert.deepEqual([read.ttlMs, read.cacheScope], [0, "private"]);
});
