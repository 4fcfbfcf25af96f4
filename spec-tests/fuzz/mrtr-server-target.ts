/**
 * Fuzz target for a modern (2026-07-28) McpServer's input rounds, driven by a hostile
 * client over Streamable HTTP: retries with any `requestState` (the one issued, an older
 * one, one issued for another call, one altered, garbage) and any `inputResponses`
 * (right answers, another method's, random JSON, keys never asked).
 *
 * Spec: draft `basic/patterns/mrtr` ("Server Requirements": servers MUST reject state
 * whose integrity fails; state SHOULD identify the method and a digest of its salient
 * parameters; "Error Handling": servers SHOULD validate that `InputResponses` can be
 * parsed, a JSON-RPC error otherwise), draft `basic/transports/streamable-http`.
 *
 * The other targets never send a retry to a server: `modern-http` sends first attempts,
 * `interleave` only a conforming client's. Invariants, per request:
 *
 * - the answer is one JSON-RPC response for the request: a `complete` result, an
 *   `input_required` one, or an error of a code the page names (-32602, or -32603);
 * - every answer a handler's ask resolves with is a valid result of the method it asked
 *   (form elicitation: an action, content only when accepted; sampling: an assistant
 *   message) and is one the client really sent for that key, in this conversation;
 * - a retry whose `requestState` is no token the server issued, or was issued for another
 *   tool or other arguments, is refused with -32602 before any handler runs;
 * - the endpoint then still serves a clean first attempt.
 */
import assert from "node:assert/strict";
import { McpServer } from "../../src/api/server.js";
import type { ServerContext } from "../../src/api/context.js";
import { hmacRequestState } from "../../src/driver/request-state.js";
import { createHttpHandler, type HttpHandler } from "../../src/transports/http-server.js";
import type { JsonObject } from "../../src/jsonrpc/types.js";
import { canonicalJson } from "../../src/session/transcript.js";
import { pick } from "../harness/random.js";
import { modernHeaders, modernRequest, answerOf } from "../http/modern-helpers.js";
import { URL_ } from "../http/helpers.js";
import { int, mutateValue, randomJson, type Rng } from "./generate.js";
import type { FuzzTarget } from "./target.js";

const SECRET = "fuzz-mrtr-server-secret-32-bytes-long!!";
const FORM = { message: "v?", requestedSchema: { type: "object" as const, properties: { v: { type: "string" as const } } } };
const SAMPLE = { messages: [{ role: "user" as const, content: { type: "text" as const, text: "a" } }], maxTokens: 5 };
const CAPS = { elicitation: { form: {} }, sampling: {} };

/** One retry (or first attempt) of the conversation, as plain JSON. */
type Step = {
  tool: string;
  args: JsonObject;
  /** Where the requestState comes from: none, an issued one (by index from the newest), that one altered, or garbage. */
  state: "none" | "issued" | "altered" | "garbage";
  pickState: number;
  alterAt: number;
  /** How each asked key is answered. */
  answers: Array<"right" | "elicit-accept" | "elicit-decline" | "sample" | "wrong" | "random" | "skip">;
  extraKey: boolean;
  responsesShape: "object" | "array" | "string" | "absent";
  noise: unknown;
};
type MrtrInput = { steps: Step[] };

const ANSWERS: Step["answers"][number][] = ["right", "right", "right", "right", "right", "right", "right", "right", "elicit-accept", "elicit-decline", "sample", "wrong", "random", "skip"];

function answerFor(kind: Step["answers"][number], method: string, noise: unknown, n: number): unknown {
  switch (kind) {
    case "right":
      return method === "elicitation/create" ? (n % 3 === 0 ? { action: "decline" } : { action: "accept", content: { v: `x${n}` } }) : { role: "assistant", content: { type: "text", text: `m${n}` }, model: "m" };
    case "elicit-accept":
      return { action: "accept", content: { v: `x${n}` } };
    case "elicit-decline":
      return { action: "decline" };
    case "sample":
      return { role: "assistant", content: { type: "text", text: `m${n}` }, model: "m" };
    case "wrong":
      // The other method's valid answer.
      return method === "elicitation/create" ? { role: "assistant", content: { type: "text", text: "w" }, model: "m" } : { action: "accept", content: { v: "w" } };
    default:
      return noise;
  }
}

/** Checks an answer a handler's ask resolved with. */
function validAnswer(method: string, answer: unknown): string | null {
  const a = answer as JsonObject;
  if (typeof a !== "object" || a === null || Array.isArray(a)) return "not an object";
  if (method === "elicitation/create") {
    if (!["accept", "decline", "cancel"].includes(a.action as string)) return `action ${JSON.stringify(a.action)}`;
    if (a.action !== "accept" && a.content !== undefined) return "content on a non-accept";
    if (a.content !== undefined && (typeof a.content !== "object" || a.content === null || Array.isArray(a.content))) return "content not an object";
    return null;
  }
  if (a.role !== "assistant") return `role ${JSON.stringify(a.role)}`;
  if (typeof a.model !== "string") return "no model";
  if (typeof a.content !== "object" || a.content === null) return "no content";
  return null;
}

interface Run {
  handler: HttpHandler;
  /** Canonical answers the client sent, per key. */
  sent: Map<string, Set<string>>;
  violations: string[];
  runs: number;
}

function makeRun(): Run {
  const run: Run = { handler: undefined as never, sent: new Map(), violations: [], runs: 0 };
  const server = new McpServer({ name: "s", version: "1" }, { session: { versions: ["2026-07-28"] }, requestState: hmacRequestState({ secret: SECRET }), requestStateTtlMs: 0, wallClock: () => 0 });
  const seen = (ctx: ServerContext, key: string, method: string, answer: unknown): void => {
    const bad = validAnswer(method, answer);
    if (bad !== null) run.violations.push(`${key} (${method}) resolved with an invalid answer (${bad}): ${JSON.stringify(answer)}`);
    if (!run.sent.get(key)?.has(canonicalJson(answer))) run.violations.push(`${key} resolved with an answer the client never sent: ${JSON.stringify(answer)}`);
    void ctx;
  };
  const asker = (name: string) =>
    server.tool(name, { inputSchema: { type: "object", properties: { n: { type: "number" } } } }, async (_args: JsonObject, ctx: ServerContext) => {
      run.runs++;
      const a = await ctx.elicit(FORM);
      seen(ctx, "ask-0", "elicitation/create", a);
      const [b, c] = await Promise.all([ctx.sample(SAMPLE), ctx.elicit(FORM)]);
      seen(ctx, "ask-1", "sampling/createMessage", b);
      seen(ctx, "ask-2", "elicitation/create", c);
      return { content: [{ type: "text" as const, text: "done" }] };
    });
  asker("survey");
  asker("other");
  run.handler = createHttpHandler({ path: "/mcp", createSession: server.httpSession() });
  return run;
}

/** Posts one modern tools/call; the final JSON-RPC answer. */
async function call(run: Run, id: number | string, params: JsonObject): Promise<{ status: number; msg: any }> {
  const message = modernRequest(id, "tools/call", params, { "io.modelcontextprotocol/clientCapabilities": CAPS });
  const res = await run.handler(new Request(URL_, { method: "POST", headers: modernHeaders(message), body: JSON.stringify(message) }));
  if (res.status !== 200) return { status: res.status, msg: await res.text() };
  return { status: 200, msg: await answerOf(res) };
}

export const mrtrServer: FuzzTarget<MrtrInput> = {
  name: "mrtr-server",
  spec: "draft basic/patterns/mrtr Server Requirements + Error Handling: hostile retries are refused, handlers see only valid answers the client sent",
  generate(r: Rng) {
    const steps: Step[] = [];
    let tool = "survey";
    let args: JsonObject = { n: 1 };
    for (let i = 2 + int(r, 7); i > 0; i--) {
      // Mostly the same call retried, as a client does; sometimes another tool or other arguments.
      if (r() < 0.2) tool = r() < 0.7 ? "survey" : "other";
      if (r() < 0.2) args = pick(r, [{ n: 1 }, { n: 2 }, {}]);
      steps.push({
        tool,
        args,
        state: pick(r, ["none", "issued", "issued", "issued", "issued", "issued", "altered", "garbage"] as const),
        pickState: r() < 0.7 ? 0 : int(r, 3),
        alterAt: r(),
        answers: [pick(r, ANSWERS), pick(r, ANSWERS), pick(r, ANSWERS)],
        extraKey: r() < 0.15,
        responsesShape: r() < 0.9 ? "object" : pick(r, ["array", "string", "absent"] as const),
        noise: r() < 0.5 ? mutateValue(r, pick(r, [{ action: "accept", content: { v: "n" } }, { role: "assistant", content: { type: "text", text: "n" }, model: "m" }])) : randomJson(r, 2),
      });
    }
    return { steps };
  },
  async check({ steps }) {
    const run = makeRun();
    /** Issued states, newest last, with what they were issued for and the keys their round asked. */
    const issued: { token: string; tool: string; args: string; asked: Record<string, string> }[] = [];
    let n = 0;
    for (const [i, s] of steps.entries()) {
      const where = `step ${i} ${JSON.stringify(s).slice(0, 300)}`;
      const params: JsonObject = { name: s.tool, arguments: s.args };
      const base = issued.length === 0 ? undefined : issued[Math.max(0, issued.length - 1 - s.pickState)];
      let foreign = false;
      if (s.state === "issued" && base !== undefined) {
        params.requestState = base.token;
        foreign = base.tool !== s.tool || base.args !== canonicalJson(s.args);
      } else if (s.state === "altered" && base !== undefined) {
        // A character in the middle changed: bits the token's bytes are made of, never padding.
        const t = base.token;
        const at = 1 + Math.floor(s.alterAt * (t.length - 2));
        const ch = t[at] === "." ? "A" : t[at] === "A" ? "B" : "A";
        params.requestState = t.slice(0, at) + ch + t.slice(at + 1);
        foreign = true;
      } else if (s.state === "garbage") {
        params.requestState = pick(() => s.alterAt, ["", "x", "a.b", "eyJ9.AAAA", "null"]);
        foreign = true;
      }
      const asked = base?.asked ?? { "ask-0": "elicitation/create" };
      const responses: Record<string, unknown> = {};
      Object.keys(asked).forEach((key, k) => {
        const kind = s.answers[k % s.answers.length];
        if (kind === "skip") return;
        const answer = answerFor(kind, asked[key], s.noise, n++);
        responses[key] = answer;
      });
      if (s.extraKey) responses["ask-9"] = { action: "accept", content: { v: "extra" } };
      if (s.responsesShape === "object") params.inputResponses = responses as JsonObject;
      else if (s.responsesShape === "array") params.inputResponses = [responses] as never;
      else if (s.responsesShape === "string") params.inputResponses = "r" as never;
      for (const [key, answer] of Object.entries(responses)) {
        if (!run.sent.has(key)) run.sent.set(key, new Set());
        run.sent.get(key)!.add(canonicalJson(answer));
      }
      const runsBefore = run.runs;
      const { status, msg } = await call(run, i, params);
      assert.equal(status, 200, `${where}: status ${status} ${typeof msg === "string" ? msg : ""}`);
      assert.equal(msg.id, i, `${where}: answered id ${JSON.stringify(msg.id)}`);
      assert.deepEqual(run.violations, [], where);
      if ("error" in msg) {
        assert.ok([-32602, -32603].includes(msg.error.code), `${where}: error code ${msg.error.code}: ${msg.error.message}`);
      } else {
        assert.ok(["complete", "input_required"].includes(msg.result.resultType), `${where}: resultType ${msg.result.resultType}`);
        if (msg.result.resultType === "input_required") {
          const ask: Record<string, string> = {};
          for (const [key, req] of Object.entries(msg.result.inputRequests ?? {})) ask[key] = (req as { method: string }).method;
          assert.equal(typeof msg.result.requestState, "string", `${where}: input_required without requestState`);
          issued.push({ token: msg.result.requestState, tool: s.tool, args: canonicalJson(s.args), asked: ask });
        }
      }
      // draft mrtr: state that fails integrity, or was issued for another call, is refused before any handler runs.
      if (foreign) {
        assert.ok("error" in msg && msg.error.code === -32602, `${where}: a foreign or altered requestState was not refused with -32602: ${JSON.stringify(msg).slice(0, 300)}`);
        assert.equal(run.runs, runsBefore, `${where}: a handler ran on a refused requestState`);
      }
    }
    const clean = await call(run, "clean", { name: "survey", arguments: {} });
    assert.equal(clean.status, 200, "the endpoint stopped serving");
    assert.equal(clean.msg.result?.resultType, "input_required", `a clean first attempt was not asked for input: ${JSON.stringify(clean.msg).slice(0, 300)}`);
  },
};
