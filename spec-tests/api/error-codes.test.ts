// Spec: 2025-11-25 client/elicitation ("URL Elicitation Required Error": the elicitations
// in a -32042 "MUST be URL mode elicitations and have an elicitationId property";
// "Servers MUST NOT send elicitation requests with modes that are not supported by the
// client"; -32042 and URL mode are new in 2025-11-25) and draft basic/index ("Error
// Codes": implementations of this version "MUST NOT emit" -32002 or -32042, nor a code of
// -32020..-32099 the specification does not define). What a handler throws is checked as
// it leaves (model/error-codes.ts, applied by the driver to every server answer).
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpServer } from "../../src/api/server.js";
import { McpError } from "../../src/driver/endpoint.js";
import { ProtocolError } from "../../src/api/server/errors.js";
import { ManualClock } from "../../src/driver/clock.js";
import { rawClient, SERVER } from "./setup.js";

const MV = "2026-07-28";
const URL_ELICITATION = { mode: "url", elicitationId: "e1", url: "https://example.com/auth", message: "Sign in first" };

/** A server whose tool `needs` throws -32042 with `elicitations`, and whose resources throw the given codes. */
function server(elicitations: object[], versions: string[] = ["2025-11-25", "2025-06-18"]): McpServer {
  const s = new McpServer(SERVER, { clock: new ManualClock(), session: { versions: versions as never } });
  s.tool("needs", {}, () => {
    throw new McpError({ code: -32042, message: "URL elicitation required", data: { elicitations } });
  });
  for (const code of [-32002, -32050, -32021, -32001]) {
    s.resource(`file:///${-code}`, { name: String(code) }, () => {
      throw new McpError({ code, message: `code ${code}`, data: code === -32021 ? { requiredCapabilities: { sampling: {} } } : { uri: `file:///${-code}` } });
    });
  }
  return s;
}

const meta = (capabilities: object = {}) => ({ "io.modelcontextprotocol/protocolVersion": MV, "io.modelcontextprotocol/clientCapabilities": capabilities, "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" } });

test("client/elicitation (2025-11-25): a -32042 of URL elicitations with elicitationId goes to a client that declared elicitation.url, unchanged", async () => {
  const raw = rawClient(server([URL_ELICITATION]));
  await raw.initialize("2025-11-25", { elicitation: { url: {} } });
  const r = await raw.request(1, "tools/call", { name: "needs", arguments: {} });
  assert.deepEqual(r.error, { code: -32042, message: "URL elicitation required", data: { elicitations: [URL_ELICITATION] } });
});

test("client/elicitation (2025-11-25): a -32042 whose elicitations are not all valid URL mode elicitations (ElicitRequestURLParams) with an elicitationId, or that lists none (The error MUST include a list of elicitations that are required), MUST NOT go out: -32603 says why", async () => {
  const form = { mode: "form", message: "m", requestedSchema: { type: "object", properties: {} } };
  const noId = { mode: "url", url: "https://example.com", message: "m" };
  for (const [elicitations, why] of [
    [[], /no elicitations list, or an empty one/],
    [[form], /every elicitation in it must be URL mode/],
    [[URL_ELICITATION, noId], /needs string elicitationId, url and message/],
    // The error's schema (URLElicitationRequiredError) holds each item to ElicitRequestURLParams whole.
    [[{ ...URL_ELICITATION, _meta: 5 }], /fails the schema: \/_meta: /],
    [[{ ...URL_ELICITATION, url: "not a URI" }], /fails the schema: \/url: /],
    [[{ ...URL_ELICITATION, task: { ttl: "long" } }], /fails the schema: \/task\/ttl: /],
  ] as const) {
    const raw = rawClient(server(elicitations as unknown as object[]));
    await raw.initialize("2025-11-25", { elicitation: { url: {} } });
    const r = await raw.request(1, "tools/call", { name: "needs", arguments: {} });
    assert.equal(r.error.code, -32603);
    assert.match(r.error.message, /^URL elicitation required \(error code -32042 not sent: /);
    assert.match(r.error.message, why);
  }
});

test("client/elicitation: no -32042 to a client without elicitation.url (form only), nor in a 2025-06-18 session, which has no URL mode", async () => {
  const s = server([URL_ELICITATION]);
  const formOnly = rawClient(s);
  await formOnly.initialize("2025-11-25", { elicitation: {} });
  const a = await formOnly.request(1, "tools/call", { name: "needs", arguments: {} });
  assert.equal(a.error.code, -32603);
  assert.match(a.error.message, /the client did not declare elicitation\.url/);
  const old = rawClient(s);
  await old.initialize("2025-06-18", { elicitation: { url: {} } });
  const b = await old.request(1, "tools/call", { name: "needs", arguments: {} });
  assert.equal(b.error.code, -32603);
  assert.match(b.error.message, /protocol version 2025-06-18 has no URL elicitation/);
});

test("basic/index Error Codes (draft): a modern request never gets -32042, -32002 (resource not found is -32602 now) or an undefined code of -32020..-32099; defined and legacy-range codes pass", async () => {
  const raw = rawClient(server([URL_ELICITATION], [MV, "2025-11-25"]));
  const call = (id: number, method: string, params: object) => raw.request(id, method, { ...params, _meta: meta({ elicitation: { url: {} } }) });
  const url = await call(1, "tools/call", { name: "needs", arguments: {} });
  assert.equal(url.error.code, -32603);
  assert.match(url.error.message, /error code -32042 not sent: 2026-07-28 has no such code/);
  const notFound = await call(2, "resources/read", { uri: "file:///32002" });
  assert.deepEqual(notFound.error, { code: -32602, message: "code -32002", data: { uri: "file:///32002" } }, "the meaning survives as -32602");
  const reserved = await call(3, "resources/read", { uri: "file:///32050" });
  assert.equal(reserved.error.code, -32603);
  assert.match(reserved.error.message, /error code -32050 not sent: the code is reserved for the MCP specification/);
  assert.equal((await call(4, "resources/read", { uri: "file:///32021" })).error.code, -32021, "a code the draft defines");
  assert.equal((await call(5, "resources/read", { uri: "file:///32001" })).error.code, -32001, "the legacy range is SHOULD NOT, not forbidden");
  // A legacy session on the same server still gets -32002, its resource-not-found code.
  const legacy = rawClient(server([URL_ELICITATION], [MV, "2025-11-25"]));
  await legacy.initialize("2025-11-25");
  assert.equal((await legacy.request(1, "resources/read", { uri: "file:///32002" })).error.code, -32002);
});

test("draft schema MissingRequiredClientCapabilityError / UnsupportedProtocolVersionError: a -32021 or -32022 a handler throws goes out only with the data the schema requires (requiredCapabilities; requested and supported), else -32603 says why", async () => {
  const s = new McpServer(SERVER, { clock: new ManualClock(), session: { versions: [MV, "2025-11-25"] } });
  const thrown: Record<string, { code: number; data?: unknown }> = {
    noData21: { code: -32021 },
    capsNotObject: { code: -32021, data: { requiredCapabilities: 5 } },
    capNotObject: { code: -32021, data: { requiredCapabilities: { sampling: true } } },
    good21: { code: -32021, data: { requiredCapabilities: { elicitation: { url: {} } } } },
    noData22: { code: -32022 },
    noSupported: { code: -32022, data: { requested: "2099-01-01" } },
    good22: { code: -32022, data: { requested: "2099-01-01", supported: [MV] } },
  };
  // A ProtocolError: what a tool throws to answer with a JSON-RPC error rather than isError.
  for (const [name, e] of Object.entries(thrown)) s.tool(name, {}, () => { throw new ProtocolError({ message: name, ...e }); });
  const raw = rawClient(s);
  let id = 0;
  const call = (name: string) => raw.request(++id, "tools/call", { name, arguments: {}, _meta: meta() });
  for (const name of ["noData21", "capsNotObject", "capNotObject"]) {
    const r = await call(name);
    assert.equal(r.error.code, -32603, name);
    assert.match(r.error.message, /error code -32021 not sent: its data must name the missing capabilities/, name);
  }
  for (const name of ["noData22", "noSupported"]) {
    const r = await call(name);
    assert.equal(r.error.code, -32603, name);
    assert.match(r.error.message, /error code -32022 not sent: its data must be \{ requested/, name);
  }
  assert.deepEqual((await call("good21")).error, { code: -32021, message: "good21", data: thrown.good21!.data });
  assert.deepEqual((await call("good22")).error, { code: -32022, message: "good22", data: thrown.good22!.data });
  // The 2025 era defines no shape for these codes: a legacy session gets what was thrown.
  const legacy = rawClient(s);
  await legacy.initialize("2025-11-25");
  assert.deepEqual((await legacy.request(1, "tools/call", { name: "noData21", arguments: {} })).error, { code: -32021, message: "noData21" });
});
