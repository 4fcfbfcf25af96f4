// Spec: draft basic/patterns/mrtr, Server Requirements ("servers MUST treat requestState as
// an attacker-controlled input ... MUST protect its integrity (e.g. HMAC or AEAD) and MUST
// reject state that fails verification"; replay: expiry and the originating request) and
// Security Considerations; SEP-2322 (any server instance can handle any round).
import { test } from "node:test";
import { createHash, createHmac } from "node:crypto";
import assert from "node:assert/strict";
import { connect, rejection, type Connected } from "../api/setup.js";
import { McpServer, type McpServerOptions } from "../../src/api/server.js";
import { inputRequired, wallClockOf } from "../../src/api/mrtr.js";
import { ManualClock } from "../../src/driver/clock.js";
import { hmacRequestState } from "../../src/driver/request-state.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { createHttpHandler } from "../../src/transports/http-server.js";
import { answerOf, modernRequest, postModern } from "../http/modern-helpers.js";
import type { JsonObject } from "../../src/jsonrpc/types.js";

const MODERN = { session: { versions: ["2026-07-28" as const] } };
const SECRET = "a shared secret of at least thirty-two bytes!";
const FORM = { message: "Name?", requestedSchema: { type: "object" as const, properties: { name: { type: "string" as const } } } };

/** A server whose tool `greet` asks for a name and keeps `{ step }` in its state; `runs` counts handler runs. */
function greetServer(runs: { n: number }, states: (string | undefined)[] = []) {
  return (s: McpServer) => {
    const handler = (_a: JsonObject, ctx: { inputResponses?: JsonObject; requestState?: string }) => {
      runs.n++;
      states.push(ctx.requestState);
      if (ctx.requestState === undefined) return inputRequired({ user: { method: "elicitation/create", params: FORM } }, '{"step":1}');
      return { content: [{ type: "text" as const, text: `state ${ctx.requestState}` }] };
    };
    s.tool("greet", {}, handler);
    s.tool("other", {}, handler);
  };
}

/** Sends a modern retry of `callTool(tool)` carrying `requestState` (the client kernel adds `_meta`). */
function retry(c: Connected, token: string, tool = "greet"): Promise<JsonObject> {
  return c.client.request("tools/call", { name: tool, inputResponses: { user: { action: "accept", content: { name: "n" } } }, requestState: token });
}

/** A modern client that answers elicitations; returns the token of the first round, read off the wire. */
async function issued(options: McpServerOptions = {}, runs = { n: 0 }): Promise<{ c: Connected; token: string; runs: { n: number } }> {
  const c = await connect(greetServer(runs), { ...MODERN, handlers: { elicitation: () => ({ action: "accept", content: { name: "n" } }) } }, { ...MODERN, ...options });
  // The client completes the rounds itself (its retry may be refused, by a throwing verifier say).
  await c.client.callTool("greet").catch(() => undefined);
  const answer = c.wire.find((w) => w.from === "server" && w.message.result?.resultType === "input_required")!;
  return { c, token: answer.message.result.requestState, runs };
}

/** One character changed at `i` (to another base64url character). */
function flip(token: string, i: number): string {
  const ch = token[i] === "A" ? "B" : "A";
  return token.slice(0, i) + ch + token.slice(i + 1);
}

test("mrtr Server Requirements: the default HMAC-SHA256 codec round-trips state and rejects every tampered, truncated or foreign token", async () => {
  const codec = hmacRequestState();
  for (const state of ["", "plain", '{"step":2,"user":"ünïcødé ✓"}', "x".repeat(100_000)]) {
    assert.equal(await codec.verify(await codec.sign(state)), state);
  }
  const token = await codec.sign('{"role":"admin"}');
  assert.notEqual(token.indexOf("admin"), 0);
  const dot = token.indexOf(".");
  const forged = [
    flip(token, 0), // the state
    flip(token, dot + 1), // the MAC
    token.slice(0, -1), // truncated
    token.slice(0, dot), // MAC dropped
    token + "A", // extended
    `${token}.x`, // an extra part
    "", // empty
    "not-a-token",
    `${Buffer.from('{"role":"root"}').toString("base64url")}${token.slice(dot)}`, // state swapped under the old MAC
    `${token.slice(0, dot)}.${"A".repeat(43)}`, // a MAC of the right length, made up
    `${token.slice(0, dot)}=${token.slice(dot)}`, // padding/odd characters
    `_w${token.slice(dot)}`, // a state that is not UTF-8 (0xff)
    `${token.slice(0, dot - 1)}${token[dot - 1] === "Q" ? "R" : "Q"}${token.slice(dot)}`, // non-canonical last character
  ];
  for (const t of forged) assert.equal(await codec.verify(t), undefined, `accepted ${JSON.stringify(t.slice(0, 40))}`);
  assert.equal(await codec.verify(42 as never), undefined);
  // Foreign: made by another instance with its own random key.
  assert.equal(await hmacRequestState().verify(token), undefined);
});

test("mrtr Server Requirements (HMAC): the token is base64url(state).base64url(HMAC-SHA256(label + state)), checked against node:crypto as an independent oracle", async () => {
  const state = '{"x":"ü"}';
  const token = await hmacRequestState({ secret: SECRET }).sign(state);
  const mac = createHmac("sha256", SECRET).update(`io.modelcontextprotocol/requestState.v1\n${state}`).digest("base64url");
  assert.equal(token, `${Buffer.from(state).toString("base64url")}.${mac}`);
  // The same vector holds on Deno, Bun and Chromium (checked by hand; the module uses only globalThis.crypto).
  assert.equal(token, "eyJ4Ijoiw7wifQ.k5ffsXzmdg9mfAnFFe2c7ntKl7Ma3xIJM4biSyul4-4");
  // The params digest is SHA-256, base64url (what the envelope binds a state's request to).
  assert.equal(await hmacRequestState({ secret: SECRET }).digest!(state), createHash("sha256").update(state).digest("base64url"));
});

test("SEP-2322 (any instance may handle any round): two codecs with one shared secret accept each other's tokens; rotation keeps old tokens valid", async () => {
  const a = hmacRequestState({ secret: SECRET });
  const b = hmacRequestState({ secret: new TextEncoder().encode(SECRET) });
  assert.equal(await b.verify(await a.sign("resume here")), "resume here");
  const rotated = hmacRequestState({ secret: ["a brand new secret, also thirty-two bytes+", SECRET] });
  assert.equal(await rotated.verify(await a.sign("old")), "old");
  assert.equal(await a.verify(await rotated.sign("new")), undefined);
  assert.throws(() => hmacRequestState({ secret: "short" }), RangeError);
  assert.throws(() => hmacRequestState({ secret: [] }), RangeError);
  assert.throws(() => hmacRequestState({ secret: 7 as never }), TypeError);
  // A key named but undefined (`{ secret: process.env.UNSET }`) is a configuration error,
  // not a quiet random key that other instances would refuse.
  assert.throws(() => hmacRequestState({ secret: undefined }), (e: Error) => e instanceof TypeError && /secret is undefined/.test(e.message));
});

test("mrtr Server Requirements (servers MUST protect requestState's integrity): the codec keeps its own copy of a byte secret, so an application that wipes or reuses its buffer after configuring it leaves the key as it was given, not all zeros anyone could sign with", async () => {
  const bytes = new TextEncoder().encode(SECRET);
  const rotating = [new TextEncoder().encode("a brand new secret, also thirty-two bytes+"), new TextEncoder().encode(SECRET)];
  const codec = hmacRequestState({ secret: bytes });
  const rotated = hmacRequestState({ secret: rotating });
  // The keys are imported on first use, after the application has wiped its copies.
  bytes.fill(0);
  for (const b of rotating) b.fill(0);
  const zeros = hmacRequestState({ secret: new Uint8Array(bytes.length) });
  const token = await codec.sign("state");
  assert.equal(await zeros.verify(token), undefined, "a token signed with the all-zero key");
  assert.equal(await hmacRequestState({ secret: SECRET }).verify(token), "state");
  assert.equal(await codec.verify(await zeros.sign("forged")), undefined);
  assert.equal(await rotated.verify(await zeros.sign("forged")), undefined);
  assert.equal(await rotated.verify(await hmacRequestState({ secret: SECRET }).sign("old")), "old");
});

test("mrtr Server Requirements: a modern retry with tampered, truncated or foreign requestState is rejected with -32602 before the handler runs; the next requests still work", async () => {
  const { c, token, runs } = await issued();
  // The state left sealed: the client never sees the handler's own text.
  assert.doesNotMatch(token, /step/);
  const ran = runs.n;
  const foreign = await (await issued()).token;
  for (const bad of [flip(token, 2), token.slice(0, token.length - 3), foreign, '{"step":1}']) {
    const e = await rejection(retry(c, bad));
    assert.equal(e.code, ErrorCode.InvalidParams);
    assert.equal(e.message, "Invalid params: requestState failed its integrity check");
    assert.deepEqual(e.data, { field: "requestState", reason: "integrity" });
  }
  assert.equal(runs.n, ran, "the handler never saw forged state");
  // The genuine token still works, and so does a fresh call.
  assert.deepEqual((await retry(c, token)).content, [{ type: "text", text: 'state {"step":1}' }]);
  assert.equal((await c.client.callTool("greet")).content[0].type, "text");
});

test("SEP-2322: with a shared secret, the state one server instance issued completes on another; an instance with its own key rejects it", async () => {
  const shared = { requestState: hmacRequestState({ secret: SECRET }) };
  const { token } = await issued(shared);
  const states: (string | undefined)[] = [];
  const other = await connect(greetServer({ n: 0 }, states), MODERN, { ...MODERN, requestState: hmacRequestState({ secret: SECRET }) });
  assert.deepEqual((await retry(other, token)).content, [{ type: "text", text: 'state {"step":1}' }]);
  assert.deepEqual(states, ['{"step":1}']);
  const stranger = await connect(greetServer({ n: 0 }), MODERN, MODERN);
  assert.equal((await rejection(retry(stranger, token))).data.reason, "integrity");
});

test("mrtr replay: state issued for one request is refused on another (method and target bound), and after its expiry", async () => {
  const { c, token } = await issued({ requestStateTtlMs: 1000 });
  const e = await rejection(retry(c, token, "other"));
  assert.equal(e.code, ErrorCode.InvalidParams);
  assert.equal(e.message, "Invalid params: requestState was issued for a different request");
  assert.equal(e.data.reason, "mismatch");
  c.clock.advance(1000);
  assert.equal((await retry(c, token)).resultType, "complete");
  c.clock.advance(1);
  const late = await rejection(retry(c, token));
  assert.equal(late.message, "Invalid params: requestState has expired");
  assert.equal(late.data.reason, "expired");
  // TTL 0: no expiry.
  const forever = await issued({ requestStateTtlMs: 0 });
  forever.c.clock.advance(10 * 365 * 86_400_000);
  assert.equal((await retry(forever.c, forever.token)).resultType, "complete");
});

/** A server whose tool `transfer` asks for approval of its amount; `runs` records what each run saw. */
function transferServer(runs: { amount: unknown; state: string | undefined }[]) {
  return (s: McpServer) => {
    s.tool("transfer", { inputSchema: { type: "object", properties: { amount: { type: "number" }, to: { type: "string" } } } }, (args: JsonObject, ctx: { requestState?: string }) => {
      runs.push({ amount: args.amount, state: ctx.requestState });
      if (ctx.requestState === undefined) return inputRequired({ ok: { method: "elicitation/create", params: { message: `Transfer ${args.amount}?`, requestedSchema: { type: "object", properties: {} } } } }, "approved");
      return { content: [{ type: "text" as const, text: `transferred ${args.amount}` }] };
    });
  };
}

test("draft mrtr (requestState SHOULD identify the originating request by \"the method name and a digest of its salient parameters\"): state approved for one call's arguments is refused (-32602 mismatch) on a retry with others; the same arguments in another key order complete", async () => {
  const runs: { amount: unknown; state: string | undefined }[] = [];
  const c = await connect(transferServer(runs), { ...MODERN, handlers: { elicitation: () => ({ action: "accept", content: {} }) } }, MODERN);
  // The kernel's client completes the approved call itself.
  assert.deepEqual((await c.client.callTool("transfer", { amount: 1, to: "bob" })).content, [{ type: "text", text: "transferred 1" }]);
  const token = c.wire.find((w) => w.from === "server" && w.message.result?.resultType === "input_required")!.message.result.requestState as string;
  const replay = (args: JsonObject) => c.client.request("tools/call", { name: "transfer", arguments: args, inputResponses: { ok: { action: "accept", content: {} } }, requestState: token });
  const ran = runs.length;
  for (const args of [{ amount: 1_000_000, to: "bob" }, { amount: 1, to: "mallory" }, { amount: 1 }, { amount: 1, to: "bob", memo: "x" }]) {
    const e = await rejection(replay(args));
    assert.equal(e.code, ErrorCode.InvalidParams, JSON.stringify(args));
    assert.equal(e.message, "Invalid params: requestState was issued for a different request");
    assert.deepEqual(e.data, { field: "requestState", reason: "mismatch" });
  }
  assert.equal(runs.length, ran, "the handler never ran on arguments the state was not issued for");
  // The salient params, not their spelling: keys reordered (and _meta, which the kernel adds anyway) do not matter.
  assert.deepEqual((await replay({ to: "bob", amount: 1 })).content, [{ type: "text", text: "transferred 1" }]);
  c.client.close();
});

test("draft mrtr: an injected codec without digest (on a page served over http: no WebCrypto) still binds the params, by their canonical text", async () => {
  const original = Object.getOwnPropertyDescriptor(globalThis, "crypto")!;
  Object.defineProperty(globalThis, "crypto", { value: undefined, configurable: true, writable: true });
  try {
    const codec = { sign: (s: string) => `signed:${s}`, verify: (t: string) => (t.startsWith("signed:") ? t.slice(7) : undefined) };
    const runs: { amount: unknown; state: string | undefined }[] = [];
    const c = await connect(transferServer(runs), { ...MODERN, handlers: { elicitation: () => ({ action: "accept", content: {} }) } }, { ...MODERN, requestState: codec });
    assert.deepEqual((await c.client.callTool("transfer", { to: "bob", amount: 1 })).content, [{ type: "text", text: "transferred 1" }]);
    const token = c.wire.find((w) => w.from === "server" && w.message.result?.resultType === "input_required")!.message.result.requestState as string;
    assert.equal(JSON.parse(token.slice("signed:".length))[3], '{"arguments":{"amount":1,"to":"bob"},"name":"transfer"}');
    const e = await rejection(c.client.request("tools/call", { name: "transfer", arguments: { amount: 2, to: "bob" }, inputResponses: { ok: { action: "accept", content: {} } }, requestState: token }));
    assert.equal(e.data.reason, "mismatch");
    c.client.close();
  } finally {
    Object.defineProperty(globalThis, "crypto", original);
  }
});

test("mrtr: the sign, verify and digest functions are injected (sync ones too); a verifier that throws verifies nothing", async () => {
  const codec = { sign: (s: string) => `signed:${s}`, verify: (t: string) => (t.startsWith("signed:") ? t.slice(7) : undefined), digest: (t: string) => `d(${t.length})` };
  const { c, token } = await issued({ requestState: codec });
  assert.match(token, /^signed:\[2,"tools\/call","greet","d\(16\)",\d+,"\{\\"step\\":1\}"\]$/);
  assert.equal((await retry(c, token)).resultType, "complete");
  assert.equal((await rejection(retry(c, "forged"))).data.reason, "integrity");
  const throwing = await issued({ requestState: { sign: (s) => s, verify: () => { throw new Error("hsm down"); } } });
  assert.equal((await rejection(retry(throwing.c, throwing.token))).data.reason, "integrity");
  // An envelope that verifies but is not ours (wrong shape) is not accepted either.
  const loose = await issued({ requestState: { sign: (s) => s, verify: (t) => t } });
  // A version-1 envelope (bound to no params) among them: state sealed before the params digest no longer opens.
  for (const bad of ["[1,\"tools/call\",\"greet\",0,\"x\"]", "[3,\"tools/call\",\"greet\",\"d\",0,\"x\"]", "[2,\"tools/call\",\"greet\",0,\"x\"]", "{", "null"]) {
    assert.equal((await rejection(retry(loose.c, bad))).data.reason, "integrity");
  }
});

test("draft basic/patterns/mrtr requestState: expiry is wall-clock time, even when the system clock is passed explicitly (two instances sharing a secret agree on it)", async () => {
  const { wallClockOf } = await import("../../src/api/mrtr.js");
  const { systemClock, ManualClock } = await import("../../src/driver/clock.js");
  assert.equal(wallClockOf(undefined), Date.now);
  // systemClock counts from this process's start: an expiry stamped with it is meaningless elsewhere.
  assert.equal(wallClockOf(systemClock), Date.now);
  const manual = new ManualClock();
  manual.advance(1234);
  assert.equal(wallClockOf(manual)(), manual.now(), "an injected test clock is used as it is");
});

test("draft basic/patterns/mrtr requestState: a wallClock given in the options sets the expiry and checks it (a recorded process's readings, replayed), whatever the clock", async () => {
  const wall = () => 1_700_000_000_000;
  assert.equal(wallClockOf(new ManualClock(), wall), wall);
  let now = 1_700_000_000_000;
  const codec = { sign: (s: string) => `signed:${s}`, verify: (t: string) => (t.startsWith("signed:") ? t.slice(7) : undefined) };
  const { c, token } = await issued({ requestState: codec, wallClock: () => now, requestStateTtlMs: 1000 });
  assert.equal(JSON.parse(token.slice("signed:".length))[4], 1_700_000_001_000, "expiresAt: the wall clock's reading + ttl");
  now += 1001;
  assert.equal((await rejection(retry(c, token))).data.reason, "expired");
});

test("mrtr Server Requirements (replay): requestState issued to one authenticated principal is refused for another (-32602, reason principal) and completes for its own", async () => {
  const server = new McpServer({ name: "s", version: "1" }, { session: { versions: ["2026-07-28"] } });
  greetServer({ n: 0 })(server);
  // The principal of each request: here a header, in a deployment authInfo(req)?.token.subject.
  const handler = createHttpHandler({ createSession: server.httpSession({ principalOf: (req) => req.headers.get("x-user") ?? undefined }) });
  const caps = { "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } };
  const send = async (id: number, user: string | null, params: JsonObject) => answerOf(await postModern(handler, modernRequest(id, "tools/call", { name: "greet", arguments: {}, ...params }, caps), user === null ? {} : { "x-user": user }));
  const first = await send(1, "alice", {});
  assert.equal(first.result.resultType, "input_required");
  const token = first.result.requestState as string;
  const answer = { inputResponses: { user: { action: "accept", content: { name: "n" } } }, requestState: token };
  for (const [id, user] of [[2, "bob"], [3, null]] as const) {
    const refused = await send(id, user, answer);
    assert.equal(refused.error.code, ErrorCode.InvalidParams, String(user));
    assert.equal(refused.error.message, "Invalid params: requestState was issued to a different principal");
    assert.equal(refused.error.data.reason, "principal");
  }
  assert.deepEqual((await send(4, "alice", answer)).result.content, [{ type: "text", text: 'state {"step":1}' }]);
  // State issued with no principal is refused to an authenticated one, and completes without.
  const anonymous = await send(5, null, {});
  const open = { ...answer, requestState: anonymous.result.requestState };
  assert.equal((await send(6, "alice", open)).error.data.reason, "principal");
  assert.equal((await send(7, null, open)).result.resultType, "complete");
  handler.close();
  server.close();
});

test("README Diagnostics (request-state-refused): a refused requestState reaches McpServer's onEvent as a diagnostic naming the method and the reason, with the connection it came on, so the operator of instances without a shared secret sees why retries fail", async () => {
  const { token } = await issued({ requestState: hmacRequestState({ secret: SECRET }) });
  const seen: unknown[] = [];
  const stranger = await connect(greetServer({ n: 0 }), MODERN, { ...MODERN, onEvent: (e, from) => e.type === "diagnostic" && e.code === "request-state-refused" && seen.push({ detail: e.detail, message: e.message, connection: from.connection !== undefined }) });
  assert.equal((await rejection(retry(stranger, token))).data.reason, "integrity");
  assert.deepEqual(seen, [{ detail: { method: "tools/call", reason: "integrity" }, message: "tools/call: Invalid params: requestState failed its integrity check", connection: true }]);
});
