// Property tests over every phase and every kind of inbound message, both roles
// (STYLE: "no pair may crash, an illegal one closes cleanly"; basic/index: every invalid
// request gets a JSON-RPC error response, except from a probing or modern client, which
// draft basic/transports/stdio forbids to write any response).
import { test } from "node:test";
import assert from "node:assert/strict";
import { decode } from "../../src/jsonrpc/codec.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { createSession, step } from "../../src/session/session.js";
import { idKey, type SessionInput, type SessionOptions, type SessionOutput, type SessionState } from "../../src/session/types.js";
import { pick, rng } from "../harness/random.js";

const CLIENT: SessionOptions = { role: "client", info: { name: "c", version: "1" }, capabilities: { roots: { listChanged: true }, sampling: {}, elicitation: {} }, keepAliveMs: 500, progressIntervalMs: 10 };
const SERVER: SessionOptions = { role: "server", info: { name: "s", version: "1" }, capabilities: { tools: { listChanged: true }, resources: { subscribe: true }, prompts: {}, logging: {}, completions: {} }, keepAliveMs: 500 };

const initReq = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: { roots: {}, sampling: {}, elicitation: {} }, clientInfo: { name: "c", version: "1" } } };
const initRes = { jsonrpc: "2.0", id: 0, result: { protocolVersion: "2025-11-25", capabilities: SERVER.capabilities, serverInfo: { name: "s", version: "1" } } };

/** Sessions of both roles in every phase they can be in. */
function phases(): { label: string; state: SessionState }[] {
  const list: { label: string; state: SessionState }[] = [];
  const c = () => createSession(structuredClone(CLIENT));
  const s = () => createSession(structuredClone(SERVER));
  list.push({ label: "client/new", state: c() });
  const ci = c();
  step(ci, { type: "open", now: 0 });
  list.push({ label: "client/initializing", state: ci });
  const co = c();
  step(co, { type: "open", now: 0 });
  step(co, { type: "receive", now: 0, data: JSON.stringify(initRes) });
  list.push({ label: "client/operating", state: co });
  const modern = () => createSession({ ...structuredClone(CLIENT), versions: ["2026-07-28", "2025-11-25"] });
  const cp = modern();
  step(cp, { type: "open", now: 0 });
  list.push({ label: "client/probing", state: cp });
  const cm = modern();
  step(cm, { type: "open", now: 0 });
  step(cm, { type: "receive", now: 0, data: JSON.stringify({ jsonrpc: "2.0", id: 0, result: { resultType: "complete", supportedVersions: ["2026-07-28"], capabilities: SERVER.capabilities, ttlMs: 0, cacheScope: "private" } }) });
  list.push({ label: "client/modern", state: cm });
  const dual = createSession({ ...structuredClone(SERVER), versions: ["2026-07-28", "2025-11-25"] });
  list.push({ label: "server/dual-era", state: dual });
  const cc = c();
  step(cc, { type: "closed", now: 0 });
  list.push({ label: "client/closed", state: cc });
  list.push({ label: "server/new", state: s() });
  const sa = s();
  step(sa, { type: "receive", now: 0, data: JSON.stringify(initReq) });
  list.push({ label: "server/awaiting-initialized", state: sa });
  const so = s();
  step(so, { type: "receive", now: 0, data: JSON.stringify(initReq) });
  step(so, { type: "receive", now: 0, data: '{"jsonrpc":"2.0","method":"notifications/initialized"}' });
  list.push({ label: "server/operating", state: so });
  const sc = s();
  step(sc, { type: "closed", now: 0 });
  list.push({ label: "server/closed", state: sc });
  return list;
}

const METHODS = ["initialize", "server/discover", "subscriptions/listen", "ping", "tools/list", "tools/call", "resources/list", "resources/read", "resources/subscribe", "prompts/get", "logging/setLevel", "completion/complete", "sampling/createMessage", "elicitation/create", "roots/list", "tasks/get", "nope/nope", "__proto__", "constructor", "toString"];
const NOTES = ["notifications/initialized", "notifications/cancelled", "notifications/progress", "notifications/message", "notifications/tools/list_changed", "notifications/roots/list_changed", "notifications/elicitation/complete", "notifications/nope", "__proto__"];
const MODERN_META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } };
const PARAMS: unknown[] = [
  { _meta: MODERN_META, name: "x" },
  { _meta: MODERN_META, notifications: { toolsListChanged: true } },
  { _meta: { ...MODERN_META, "io.modelcontextprotocol/protocolVersion": "1900-01-01" } },
  { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } },
  undefined, {}, { name: "x" }, { name: 1 }, { uri: "file:///a" }, { level: "info" }, { level: "nope" }, { requestId: 1 }, { requestId: null }, { progressToken: 1, progress: 5 }, { _meta: { progressToken: "t" } }, { __proto__: { polluted: true } }, [], "str", null, 5];
const IDS: unknown[] = [0, 1, 2, "a", "1", 1.5, null, true, {}, -1, 9007199254740993];

function randomMessage(r: () => number): string {
  const kind = r();
  if (kind < 0.05) return pick(r, ["", "{", "[]", "[1]", "null", "42", '"x"', "\u0000", "{\"jsonrpc\":\"1.0\"}"]);
  const msg: Record<string, unknown> = {};
  if (r() > 0.03) msg.jsonrpc = "2.0";
  if (kind < 0.45) {
    msg.id = pick(r, IDS);
    msg.method = pick(r, METHODS);
    const params = pick(r, PARAMS);
    if (params !== undefined) msg.params = params;
  } else if (kind < 0.75) {
    msg.method = pick(r, NOTES);
    const params = pick(r, PARAMS);
    if (params !== undefined) msg.params = params;
  } else {
    msg.id = pick(r, IDS);
    if (r() < 0.6) msg.result = pick(r, [{}, { tools: [] }, { protocolVersion: "2025-11-25" }, initRes.result, [], 1, { resultType: "input_required", requestState: "s" }, { resultType: "input_required", inputRequests: { a: { method: "roots/list" } } }, { resultType: "complete", supportedVersions: ["2026-07-28"], capabilities: {}, ttlMs: 0, cacheScope: "private" }]);
    if (r() < 0.5) msg.error = pick(r, [{ code: -32601, message: "x" }, { code: "x" }, null]);
  }
  return r() < 0.02 ? JSON.stringify([msg, msg]) : JSON.stringify(msg);
}

function randomInput(r: () => number, now: number): SessionInput {
  const k = r();
  if (k < 0.6) return { type: "receive", now, data: randomMessage(r) };
  if (k < 0.7) return { type: "request", now, method: pick(r, METHODS), params: pick(r, PARAMS) as never, progress: r() < 0.5 };
  if (k < 0.75) return { type: "notify", now, method: pick(r, NOTES) };
  if (k < 0.82) return { type: "respond", now, id: pick(r, [0, 1, 2, "a"]), result: pick(r, [{}, { tools: [] }, { content: [] }]) as never };
  if (k < 0.86) return { type: "cancel", now, id: pick(r, [0, 1, 2, 3]) };
  if (k < 0.9) return { type: "progress", now, id: pick(r, [0, 1, 2, "a", "t"]), progress: Math.floor(r() * 10) };
  if (k < 0.93) return { type: "log", now, level: pick(r, ["debug", "error"] as const), data: "x", related: pick(r, [undefined, 1, "a"]) };
  if (k < 0.95) return { type: "changed", now, what: pick(r, ["tools", "prompts", "resources"] as const) };
  if (k < 0.96) return { type: "end-subscription", now, id: pick(r, [0, 1, 2]) };
  if (k < 0.99) return { type: "tick", now };
  return { type: "closed", now };
}

/** Whether `input` names, with neither a method nor an answer, a request `state` has in flight: taken as its malformed answer. */
function answersOurs(state: SessionState, input: SessionInput): boolean {
  if (input.type !== "receive" || typeof input.data !== "string") return false;
  const d = decode(input.data);
  return d.kind === "invalid" && d.orAnswers !== undefined && Object.hasOwn(state.outbound, idKey(d.orAnswers));
}

function checkOutputs(label: string, input: SessionInput, outputs: SessionOutput[], wasClosed: boolean, writesResponses: boolean, ours = false): void {
  for (const o of outputs) {
    if (o.type === "close") assert.doesNotMatch(o.reason, /internal error/, `${label}: the kernel hit a bug on ${JSON.stringify(input)}`);
    if (o.type !== "send") continue;
    const text = JSON.stringify(o.message);
    assert.ok(!text.includes("\n"));
    const d = decode(text);
    assert.notEqual(d.kind, "invalid", `${label}: kernel emitted an invalid message ${text}`);
  }
  // A closed session drops everything; an open one answers every invalid message but a malformed response.
  if (!wasClosed && input.type === "receive" && typeof input.data === "string") {
    const d = decode(input.data);
    if (d.kind === "invalid") {
      const replies = outputs.filter((o) => o.type === "send");
      // A response is never answered: a reply would read as a message of its own to a peer that answers errors.
      // (Failing the request it names may send others: a failed discover probe falls back to initialize.)
      if (d.answers !== undefined || ours) return assert.equal(replies.filter((o) => !("method" in (o as any).message)).length, 0, `${label}: replied to the malformed response ${input.data}`);
      // Draft stdio: a probing or modern client "MUST NOT write JSON-RPC responses", errors included.
      if (!writesResponses) return assert.equal(replies.length, 0, `${label}: a modern client answered ${input.data}`);
      // Every invalid request gets a spec-shaped error response.
      assert.equal(replies.length, 1, `${label}: no reply to invalid ${input.data}`);
      const err = (replies[0] as any).message.error;
      assert.ok([ErrorCode.ParseError, ErrorCode.InvalidRequest].includes(err.code));
    }
  }
}

test("property: no (phase, input) pair throws or emits an invalid message, in either role, and state stays plain JSON", () => {
  const r = rng(20261202);
  let steps = 0;
  for (let round = 0; round < 40; round++) {
    for (const { label, state } of phases()) {
      let now = 0;
      for (let i = 0; i < 60; i++) {
        now += Math.floor(r() * 200);
        const input = randomInput(r, now);
        const wasClosed = state.phase.name === "closed";
        const writesResponses = !(state.options.role === "client" && (state.phase.name === "probing" || state.phase.name === "modern"));
        const ours = answersOurs(state, input);
        const { outputs } = step(state, input);
        checkOutputs(label, input, outputs, wasClosed, writesResponses, ours);
        steps++;
      }
      assert.deepEqual(JSON.parse(JSON.stringify(state)), state, `${label}: state is not plain JSON`);
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
    }
  }
  assert.ok(steps > 10_000);
});

test("property: a JSON round trip of the state continues exactly as the original would", () => {
  const r = rng(7);
  for (let round = 0; round < 20; round++) {
    for (const { label, state } of phases()) {
      let now = 0;
      const warm: SessionInput[] = [];
      for (let i = 0; i < 30; i++) warm.push(randomInput(r, (now += Math.floor(r() * 100))));
      for (const input of warm) step(state, input);
      const copy = JSON.parse(JSON.stringify(state)) as SessionState;
      for (let i = 0; i < 30; i++) {
        const input = randomInput(r, (now += Math.floor(r() * 100)));
        const a = step(state, structuredClone(input)).outputs;
        const b = step(copy, structuredClone(input)).outputs;
        assert.deepEqual(b, a, `${label}: diverged after a JSON round trip at ${JSON.stringify(input)}`);
      }
    }
  }
});

test("property: unknown input types are ignored with a diagnostic, never a throw", () => {
  const s = createSession(structuredClone(SERVER));
  const out = step(s, { type: "bogus", now: 0 } as never).outputs;
  assert.deepEqual(out.map((o) => o.type), ["diagnostic"]);
});
