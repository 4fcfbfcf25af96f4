/**
 * Fuzz target for the session reducer: random sequences of inputs, both roles, both eras.
 *
 * Spec: 2025-11-25 `basic/index` (a request gets a response: a result or an error),
 * `basic/lifecycle`, `basic/utilities/cancellation` (a cancelled request is not answered),
 * draft `basic/versioning`; STYLE.md (the kernel never throws across its boundary, state
 * is plain JSON).
 *
 * Unlike `session/property.test.ts`, which checks each step on its own, this target
 * follows a whole conversation and checks what is owed across it:
 *
 * - every request from the peer that the session did not drop (closed, or a probing or
 *   modern client, which writes no responses) gets exactly one
 *   response with its id, unless the peer cancelled it; a request the application was
 *   handed is answered by the driver at the end, so nothing may stay owed;
 * - every request the application sent ends in exactly one `response` or `error` output,
 *   at the latest when the transport closes;
 * - no `progress` event for a request after its answer, unless the answer created a
 *   2025-11-25 task (`progress-kept`), until that task's token ends (`progress-ended`);
 * - after `closed` no table holds anything; at every step the counters match the tables,
 *   every table is within its limit, and the state survives a JSON round trip.
 */
import assert from "node:assert/strict";
import { decode, decodeValue, type Decoded } from "../../src/jsonrpc/codec.js";
import type { JsonRpcMessage } from "../../src/jsonrpc/types.js";
import { createSession, step } from "../../src/session/session.js";
import { idKey, type SessionInput, type SessionOptions, type SessionOutput, type SessionState } from "../../src/session/types.js";
import { pick } from "../harness/random.js";
import { int, messageText, mutateValue, randomJson, type Rng } from "./generate.js";
import type { FuzzTarget } from "./target.js";

const SERVER_CAPS = { tools: { listChanged: true }, resources: { subscribe: true, listChanged: true }, prompts: {}, logging: {}, completions: {} };
const CLIENT_CAPS = { roots: { listChanged: true }, sampling: {}, elicitation: { form: {}, url: {} } };

/** The session setups the target picks from (exported for debugging a corpus entry). Small limits, so the caps are reached. */
export const SETUPS: Record<string, SessionOptions> = {
  server: { role: "server", info: { name: "s", version: "1" }, capabilities: SERVER_CAPS, maxInboundRequests: 4, maxSubscriptions: 2, keepAliveMs: 300, maxMessageBytes: 2048, maxDepth: 8 },
  "dual-server": { role: "server", info: { name: "s", version: "1" }, capabilities: SERVER_CAPS, versions: ["2026-07-28", "2025-11-25", "2025-03-26"], maxInboundRequests: 4, maxSubscriptions: 2 },
  "batch-server": { role: "server", info: { name: "s", version: "1" }, capabilities: SERVER_CAPS, versions: ["2025-03-26"], maxInboundRequests: 4 },
  client: { role: "client", info: { name: "c", version: "1" }, capabilities: CLIENT_CAPS, maxOutboundRequests: 3, requestTimeoutMs: 500, progressIntervalMs: 10 },
  "modern-client": { role: "client", info: { name: "c", version: "1" }, capabilities: CLIENT_CAPS, versions: ["2026-07-28", "2025-11-25"], maxOutboundRequests: 3, maxInputRounds: 2, requestTimeoutMs: 500 },
  // The tasks family (session-tasks-target.ts): 2025-11-25 tasks declared, or the 2026-07-28 extension.
  "task-server": { role: "server", info: { name: "s", version: "1" }, capabilities: { ...SERVER_CAPS, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } }, versions: ["2025-11-25"], maxInboundRequests: 4, maxSubscriptions: 2 },
  "task-client": { role: "client", info: { name: "c", version: "1" }, capabilities: { ...CLIENT_CAPS, tasks: { list: {}, cancel: {}, requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } } }, versions: ["2025-11-25"], maxOutboundRequests: 3, requestTimeoutMs: 500, maxRequestTimeoutMs: 900, progressIntervalMs: 10 },
  "ext-client": { role: "client", info: { name: "c", version: "1" }, capabilities: { ...CLIENT_CAPS, extensions: { "io.modelcontextprotocol/tasks": {} } }, versions: ["2026-07-28", "2025-11-25"], maxOutboundRequests: 3, maxInputRounds: 2, requestTimeoutMs: 500, maxRequestTimeoutMs: 900 },
  "ext-server": { role: "server", info: { name: "s", version: "1" }, capabilities: { ...SERVER_CAPS, extensions: { "io.modelcontextprotocol/tasks": {} } }, versions: ["2026-07-28", "2025-11-25"], maxInboundRequests: 4, maxSubscriptions: 2 },
};
/** The setups the `session` target picks from (the tasks ones are `session-tasks`'s), in their first order, so a seed names the same input as before. */
const SESSION_SETUPS = ["server", "dual-server", "batch-server", "client", "modern-client"];

const V = "2025-11-25";
const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": { elicitation: {} }, "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" } };
const METHODS = ["ping", "tools/list", "tools/call", "resources/read", "resources/subscribe", "logging/setLevel", "prompts/get", "completion/complete", "sampling/createMessage", "elicitation/create", "roots/list", "subscriptions/listen", "server/discover", "initialize", "nope"];
const IDS = [0, 1, 2, 3, "a", "1", 7];

/** Plausible traffic: a handshake, requests (legacy and modern), responses, cancellations, progress. */
export function plausible(r: Rng): unknown {
  const k = r();
  const id = pick(r, IDS);
  if (k < 0.12) return { jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion: pick(r, [V, "2025-03-26", "2026-07-28", "1999-01-01"]), capabilities: CLIENT_CAPS, clientInfo: { name: "c", version: "1" } } };
  if (k < 0.2) return { jsonrpc: "2.0", method: "notifications/initialized" };
  if (k < 0.28) return { jsonrpc: "2.0", id, result: { protocolVersion: pick(r, [V, "2025-03-26"]), capabilities: SERVER_CAPS, serverInfo: { name: "s", version: "1" } } };
  if (k < 0.32) return { jsonrpc: "2.0", id, result: { resultType: "complete", supportedVersions: ["2026-07-28"], capabilities: SERVER_CAPS, serverInfo: { name: "s", version: "1" }, ttlMs: 0, cacheScope: "private" } };
  if (k < 0.36) return { jsonrpc: "2.0", id, result: { resultType: "input_required", inputRequests: { a: { method: "roots/list", params: {} } }, requestState: "st" } };
  if (k < 0.55) {
    const method = pick(r, METHODS);
    const params: Record<string, unknown> = pick(r, [{}, { name: "t", arguments: {} }, { uri: "file:///a" }, { level: "info" }, { notifications: { toolsListChanged: true } }]);
    if (r() < 0.4) params._meta = r() < 0.5 ? META : { progressToken: pick(r, [1, "t"]) };
    return { jsonrpc: "2.0", id, method, params };
  }
  if (k < 0.62) return { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: "x" } };
  if (k < 0.68) return { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: pick(r, [0, 1, 2, "t"]), progress: int(r, 9) } };
  if (k < 0.74) return { jsonrpc: "2.0", id, error: { code: pick(r, [-32601, -32602, -32603, -32042]), message: "x" } };
  if (k < 0.78) return [{ jsonrpc: "2.0", id, method: "ping" }, { jsonrpc: "2.0", method: "notifications/initialized" }];
  if (k < 0.9) return mutateValue(r, { jsonrpc: "2.0", id, method: pick(r, METHODS), params: { _meta: META } });
  return randomJson(r, 4);
}

export function randomInput(r: Rng, now: number): SessionInput {
  const k = r();
  if (k < 0.55) return { type: "receive", now, data: r() < 0.8 ? JSON.stringify(plausible(r)) ?? "null" : messageText(r) };
  if (k < 0.58) return { type: "receive", now, value: plausible(r) };
  if (k < 0.66) return { type: "request", now, method: pick(r, METHODS), params: pick(r, [undefined, {}, { name: "t" }, { messages: [], maxTokens: 1 }]) as never, progress: r() < 0.3 };
  if (k < 0.69) return { type: "open", now };
  if (k < 0.76) return { type: "respond", now, id: pick(r, IDS), result: pick(r, [{}, { tools: [] }, { content: [] }, { resultType: "input_required", inputRequests: { x: { method: "elicitation/create", params: {} } } }]) as never };
  if (k < 0.79) return { type: "respond", now, id: pick(r, IDS), error: { code: -32603, message: "app failed" } };
  if (k < 0.82) return { type: "cancel", now, id: pick(r, [0, 1, 2, 3, 4]) };
  if (k < 0.85) return { type: "progress", now, id: pick(r, IDS), progress: int(r, 10), total: 10 };
  if (k < 0.87) return { type: "log", now, level: pick(r, ["debug", "error"] as const), data: "x", related: pick(r, [undefined, 1, "a"]) };
  if (k < 0.89) return { type: "changed", now, what: pick(r, ["tools", "prompts", "resources"] as const) };
  if (k < 0.9) return { type: "changed", now, what: "resource", uri: "file:///a" };
  if (k < 0.91) return { type: "end-subscription", now, id: pick(r, IDS) };
  if (k < 0.995) return { type: "tick", now };
  return { type: "closed", now };
}

type SessionFuzzInput = { setup: string; steps: SessionInput[] };

/** Wire-level request ids a received input obliges the session to answer (valid requests, and invalid ones whose reply names an id). */
function owedBy(input: SessionInput, state: SessionState): string[] {
  if (input.type !== "receive") return [];
  // Draft basic/transports/stdio: a probing or modern client "MUST NOT write JSON-RPC responses".
  if (state.options.role === "client" && (state.phase.name === "probing" || state.phase.name === "modern")) return [];
  const limits = { allowBatch: true, maxBytes: state.options.maxMessageBytes, maxDepth: state.options.maxDepth };
  const d = typeof input.data === "string" ? decode(input.data, limits) : input.value !== undefined ? decodeValue(input.value, limits) : undefined;
  if (d === undefined) return [];
  const items: Decoded[] = d.kind === "batch" ? d.items : [d];
  const keys: string[] = [];
  for (const item of items) {
    if (item.kind === "request") keys.push(idKey(item.message.id));
    // A message with neither a method nor an answer, naming a request of ours in flight, is
    // taken as that request's malformed answer: it is owed no reply.
    else if (item.kind === "invalid" && item.reply.id !== null && !(item.orAnswers !== undefined && Object.hasOwn(state.outbound, idKey(item.orAnswers)))) keys.push(idKey(item.reply.id));
  }
  return keys;
}

function responsesIn(outputs: SessionOutput[]): JsonRpcMessage[] {
  const out: JsonRpcMessage[] = [];
  for (const o of outputs) if (o.type === "send") for (const m of Array.isArray(o.message) ? o.message : [o.message]) out.push(m as JsonRpcMessage);
  return out;
}

function checkState(state: SessionState, where: string): void {
  assert.deepEqual(JSON.parse(JSON.stringify(state)), state, `${where}: state is not plain JSON`);
  assert.equal(state.inboundCount, Object.keys(state.inbound).length, `${where}: inboundCount drifted`);
  assert.equal(state.outboundCount, Object.keys(state.outbound).length, `${where}: outboundCount drifted`);
  assert.equal(state.subscriptionCount, Object.keys(state.subscriptions).length, `${where}: subscriptionCount drifted`);
  const o = state.options;
  assert.ok(state.inboundCount <= o.maxInboundRequests + 1, `${where}: ${state.inboundCount} inbound over the cap ${o.maxInboundRequests}`);
  const abandoned = Object.values(state.outbound).filter((r) => r.internal === "abandoned-task").length;
  assert.equal(state.abandonedCount ?? 0, abandoned, `${where}: abandonedCount drifted`);
  assert.ok(state.outboundCount - abandoned <= o.maxOutboundRequests + 2, `${where}: ${state.outboundCount - abandoned} outbound over the cap ${o.maxOutboundRequests}`);
  assert.ok(abandoned <= o.maxOutboundRequests, `${where}: ${abandoned} abandoned requests over the cap ${o.maxOutboundRequests}`);
  assert.ok(state.subscriptionCount <= o.maxSubscriptions, `${where}: subscriptions over the cap`);
  for (const [token, key] of Object.entries(state.progressTokens)) assert.ok(Object.hasOwn(state.outbound, key), `${where}: progress token ${token} outlived its request`);
  for (const key of Object.keys(state.subscriptions)) assert.ok(Object.hasOwn(state.inbound, key), `${where}: subscription ${key} has no request`);
  assert.ok(Object.keys(state.mrtr).length <= o.maxOutboundRequests, `${where}: input rounds over the cap`);
  // 2025-11-25 tasks: a kept token is a task's, not also a live request's, and its order lists exactly the kept ones.
  for (const key of Object.keys(state.taskProgress)) assert.ok(!Object.hasOwn(state.progressTokens, key), `${where}: progress token ${key} is both a request's and a task's`);
  if (state.taskProgressOrder !== undefined) assert.deepEqual([...state.taskProgressOrder].sort(), Object.keys(state.taskProgress).sort(), `${where}: taskProgressOrder does not list the kept tokens`);
}

/** Feeds every step, then settles what the application owes and closes; checks the ledger. */
export function runConversation({ setup, steps }: SessionFuzzInput): void {
  const state = createSession(structuredClone(SETUPS[setup]));
  const owed = new Map<string, number>();
  let requestsSent = 0;
  let settled = 0;
  // basic/utilities/progress: no progress after the operation completed. Per event id: the
  // request is live until its answer, unless the answer created a task (`progress-kept`),
  // whose token lives until `progress-ended`.
  const progressOver = new Set<string>();
  const taskKept = new Set<string>();
  const feed = (input: SessionInput, where: string): SessionOutput[] => {
    const wasClosed = state.phase.name === "closed";
    let owes = wasClosed ? [] : owedBy(input, state);
    if (input.type === "request") requestsSent++;
    const { outputs } = step(state, input);
    // A batch the session does not accept (outside a 2025-03-26 session past initialize) is one invalid message, answered once with id null.
    if (outputs.some((o) => o.type === "send" && !Array.isArray(o.message) && "error" in o.message && o.message.id === null && /batch/.test(o.message.error.message))) owes = [];
    for (const key of owes) owed.set(key, (owed.get(key) ?? 0) + 1);
    for (const m of responsesIn(outputs)) {
      assert.notEqual(decode(JSON.stringify(m)).kind, "invalid", `${where}: the session sent an invalid message ${JSON.stringify(m)}`);
      if ("method" in m || m.id === null) continue;
      const key = idKey(m.id);
      const n = owed.get(key) ?? 0;
      assert.ok(n > 0, `${where}: answered ${JSON.stringify(m.id)}, which nobody asked (or asked once and got two answers): ${JSON.stringify(m)}`);
      owed.set(key, n - 1);
    }
    for (const o of outputs) {
      if (o.type === "close") assert.doesNotMatch(o.reason, /internal error/, `${where}: the kernel threw`);
      if (o.type === "response" || o.type === "error") settled++;
      if (o.type === "progress-kept") taskKept.add(idKey(o.id));
      if ((o.type === "response" || o.type === "error") && !taskKept.has(idKey(o.id))) progressOver.add(idKey(o.id));
      if (o.type === "progress-ended") taskKept.delete(idKey(o.id)), progressOver.add(idKey(o.id));
      if (o.type === "progress") assert.ok(!progressOver.has(idKey(o.id)), `${where}: progress for ${JSON.stringify(o.id)} after its operation ended`);
      if (o.type === "cancelled") {
        const key = idKey(o.id);
        if ((owed.get(key) ?? 0) > 0) owed.set(key, owed.get(key)! - 1);
        }
    }
    if (state.phase.name === "closed") owed.clear();
    checkState(state, where);
    return outputs;
  };
  steps.forEach((input, i) => feed(input, `step ${i} ${JSON.stringify(input).slice(0, 300)}`));
  const now = steps.length === 0 ? 0 : steps[steps.length - 1].now;
  // The application answers what it was handed; open subscription streams are ended.
  for (const key of Object.keys(state.inbound)) {
    const req = state.inbound[key];
    if (Object.hasOwn(state.subscriptions, key)) feed({ type: "end-subscription", now, id: req.id }, `ending subscription ${key}`);
    else feed({ type: "respond", now, id: req.id, result: {} }, `answering ${key}`);
  }
  if (state.phase.name !== "closed") {
    for (const [key, n] of owed) assert.equal(n, 0, `request ${key} from the peer was never answered`);
  }
  feed({ type: "closed", now }, "closing");
  assert.equal(state.inboundCount, 0, "inbound requests left after close");
  assert.equal(state.outboundCount, 0, "outbound requests left after close");
  assert.deepEqual(state.mrtr, {}, "input rounds left after close");
  assert.deepEqual(state.taskProgress, {}, "task progress tokens left after close");
  assert.equal(settled, requestsSent, `${requestsSent} requests sent by the application, ${settled} settled`);
}

/** The session reducer over whole conversations. */
export const session: FuzzTarget<SessionFuzzInput> = {
  name: "session",
  spec: "basic/index + lifecycle + cancellation: every request answered once, nothing leaks, state stays JSON",
  generate(r: Rng) {
    const setup = pick(r, SESSION_SETUPS);
    const steps: SessionInput[] = [];
    let now = 0;
    for (let i = 10 + int(r, 70); i > 0; i--) steps.push(randomInput(r, (now += int(r, 120))));
    return { setup, steps };
  },
  check: runConversation,
};
