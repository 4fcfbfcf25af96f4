// Spec: draft basic/patterns/mrtr (InputRequiredResult, Server Requirements, Error
// Handling), SEP-2322 Backward Compatibility, draft basic/versioning (dual-era server),
// 2025-11-25 client/{elicitation,sampling,roots}, basic/utilities/{cancellation,progress}.
// One McpServer handler that answers input_required, served to a modern client (MRTR
// rounds on the wire) and to a legacy session (real server-to-client requests).
import { test } from "node:test";
import assert from "node:assert/strict";
import { connect, deferred, rejection } from "./setup.js";
import { McpServer, type McpServerOptions } from "../../src/api/server.js";
import { InputRequiredBridge, inputRequired } from "../../src/api/mrtr.js";
import type { RequestContext } from "../../src/driver/endpoint.js";
import type { ServerContext } from "../../src/api/context.js";
import type { ElicitResult } from "../../src/api/types.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import type { JsonObject } from "../../src/jsonrpc/types.js";
import { blockText } from "../harness/content.js";

const DUAL: McpServerOptions = { session: { versions: ["2026-07-28", "2025-11-25"] } };
const MODERN = { session: { versions: ["2026-07-28" as const] } };
const LEGACY = { session: { versions: ["2025-11-25" as const] } };
const NAME_FORM = { message: "GitHub username?", requestedSchema: { type: "object" as const, properties: { name: { type: "string" as const } }, required: ["name"] } };

/** The server's response to the client's request `id` (ids of both directions may coincide). */
function responseTo(c: { wire: { from: string; message: any }[] }, id: unknown): any {
  return c.wire.find((w) => w.from === "server" && w.message.id === id && w.message.method === undefined)?.message;
}

interface Seen {
  responses: JsonObject | undefined;
  state: string | undefined;
}

/**
 * The one handler both eras run: asks for the user name, keeps the requested service in
 * its requestState, and re-asks while the answer is not an accept.
 */
function greeter(seen: Seen[]) {
  return (args: JsonObject, ctx: ServerContext) => {
    seen.push({ responses: ctx.inputResponses, state: ctx.requestState });
    const answer = ctx.inputResponses?.user as ElicitResult | undefined;
    if (answer?.action !== "accept") return inputRequired({ user: { method: "elicitation/create", params: NAME_FORM } }, JSON.stringify({ service: args.service }));
    const { service } = JSON.parse(ctx.requestState!) as { service: string };
    return { content: [{ type: "text" as const, text: `hello ${answer.content!.name as string} on ${service}` }] };
  };
}

function serverWith(seen: Seen[]) {
  return (s: McpServer) => s.tool("greet", { inputSchema: { type: "object", properties: { service: { type: "string" } } } }, greeter(seen));
}

test("mrtr + SEP-2322 Backward Compatibility: the same handler serves a modern client with input_required rounds and a legacy client with a real elicitation/create", async () => {
  const answers = [{ action: "decline" as const }, { action: "accept" as const, content: { name: "octocat" } }];
  const elicit = () => answers[Math.min(asked++, 1)];
  let asked = 0;

  const modernSeen: Seen[] = [];
  const modern = await connect(serverWith(modernSeen), { ...MODERN, handlers: { elicitation: elicit } }, DUAL);
  const m = await modern.client.callTool("greet", { service: "github" });
  assert.deepEqual(m.content, [{ type: "text", text: "hello octocat on github" }]);
  // Modern: no server-to-client request on the wire; three tools/call attempts, each with a new id (MUST).
  assert.equal(modern.sent("server", "elicitation/create").length, 0);
  const calls = modern.sent("client", "tools/call");
  assert.equal(calls.length, 3);
  assert.equal(new Set(calls.map((c) => c.id)).size, 3);
  const firstAnswer = responseTo(modern, calls[0].id).result;
  assert.equal(firstAnswer.resultType, "input_required");
  // The state went out sealed (not the handler's JSON) and came back as the handler wrote it.
  assert.notEqual(firstAnswer.requestState, JSON.stringify({ service: "github" }));
  assert.equal(calls[1].params.requestState, firstAnswer.requestState);
  assert.deepEqual(modernSeen.map((s) => s.state), [undefined, '{"service":"github"}', '{"service":"github"}']);

  asked = 0;
  const legacySeen: Seen[] = [];
  const legacy = await connect(serverWith(legacySeen), { ...LEGACY, handlers: { elicitation: elicit } }, DUAL);
  const l = await legacy.client.callTool("greet", { service: "github" });
  assert.deepEqual(l.content, m.content);
  // Legacy: one tools/call, answered once, with no resultType; the handler's inputs became real requests.
  assert.equal(legacy.sent("client", "tools/call").length, 1);
  const elicitations = legacy.sent("server", "elicitation/create");
  assert.equal(elicitations.length, 2);
  assert.deepEqual(elicitations[0].params, NAME_FORM);
  const final = responseTo(legacy, legacy.sent("client", "tools/call")[0].id).result;
  assert.equal(final.resultType, undefined);
  // The handler saw the same inputs in both eras.
  assert.deepEqual(legacySeen, modernSeen);
});

test("mrtr: servers MUST NOT send inputRequests the client did not declare — a legacy session without elicitation gets -32021 like a modern client, no request goes out, and the session carries on", async () => {
  for (const era of [LEGACY, MODERN]) {
    const seen: Seen[] = [];
    const c = await connect((s) => {
      serverWith(seen)(s);
      s.tool("plain", {}, () => ({ content: [{ type: "text", text: "still here" }] }));
    }, era, DUAL);
    const e = await rejection(c.client.callTool("greet", { service: "x" }));
    assert.equal(e.code, ErrorCode.MissingRequiredClientCapability);
    assert.deepEqual(e.data, { requiredCapabilities: { elicitation: {} } });
    assert.equal(c.sent("server", "elicitation/create").length, 0);
    assert.equal(seen.length, 1);
    assert.deepEqual((await c.client.callTool("plain")).content, [{ type: "text", text: "still here" }]);
  }
  // A mode the handshake did not declare counts too (elicitation.url; 2025-11-25 client/elicitation).
  const url = await connect(
    (s) => s.tool("open", {}, () => inputRequired({ go: { method: "elicitation/create", params: { mode: "url", message: "Sign in", url: "https://example.com/a", elicitationId: "e1" } } })),
    { ...LEGACY, handlers: { elicitation: () => ({ action: "accept" }) } },
    DUAL,
  );
  const e = await rejection(url.client.callTool("open"));
  assert.equal(e.code, ErrorCode.MissingRequiredClientCapability);
  assert.deepEqual(e.data, { requiredCapabilities: { elicitation: { url: {} } } });
});

test("client/elicitation URL mode: 2026-07-28 has no elicitationId, 2025-11-25 requires one; a URL elicitation written without one gets one from its request's id in a 2025-11-25 session (bridged or asked with ctx.elicit), and none in the modern era", async () => {
  const url = { mode: "url" as const, message: "Sign in", url: "https://example.com/a" };
  const setup = (s: McpServer) => {
    s.tool("bridged", {}, (_a, ctx) => (ctx.inputResponses === undefined ? inputRequired({ go: { method: "elicitation/create", params: url } }) : { content: [{ type: "text", text: "signed in" }] }));
    s.tool("asked", {}, async (_a, ctx) => ({ content: [{ type: "text", text: (await ctx.elicit(url)).action }] }));
  };
  for (const era of [LEGACY, MODERN]) {
    const got: JsonObject[] = [];
    const c = await connect(setup, { ...era, capabilities: { elicitation: { url: {} } }, handlers: { elicitation: (p) => (got.push(p), { action: "accept" }) } }, DUAL);
    assert.deepEqual((await c.client.callTool("bridged")).content, [{ type: "text", text: "signed in" }]);
    assert.deepEqual((await c.client.callTool("asked")).content, [{ type: "text", text: "accept" }]);
    const sent = c.sent("server", "elicitation/create");
    if (era === LEGACY) {
      // Each from the id of the request that carries it: unique in the session.
      assert.deepEqual(sent.map((m) => m.params.elicitationId), sent.map((m) => `elicitation-${m.id}`));
      assert.deepEqual(got, sent.map((m) => ({ ...url, elicitationId: `elicitation-${m.id}` })));
      assert.equal(new Set(got.map((p) => p.elicitationId)).size, 2);
    } else {
      assert.deepEqual(sent, [], "modern: input_required rounds, no request");
      assert.deepEqual(got, [url, url]);
    }
    c.client.close();
  }
  // An id given is the application's own, and kept.
  const own = await connect((s) => s.tool("own", {}, async (_a, ctx) => ({ content: [{ type: "text", text: (await ctx.elicit({ ...url, elicitationId: "mine" })).action }] })), { ...LEGACY, capabilities: { elicitation: { url: {} } }, handlers: { elicitation: () => ({ action: "decline" }) } }, DUAL);
  assert.deepEqual((await own.client.callTool("own")).content, [{ type: "text", text: "decline" }]);
  assert.equal(own.sent("server", "elicitation/create")[0].params.elicitationId, "mine");
});

test("cancellation: cancelling a legacy call mid-bridge cancels the pending elicitation/create, the handler never runs again, and the call gets no response", async () => {
  const asked = deferred();
  const innerAborted = deferred<unknown>();
  const seen: Seen[] = [];
  const c = await connect(serverWith(seen), {
    ...LEGACY,
    handlers: {
      elicitation: (_p, ctx) => {
        ctx.signal.addEventListener("abort", () => innerAborted.resolve(ctx.signal.reason));
        asked.resolve();
        return new Promise<ElicitResult>(() => {});
      },
    },
  }, DUAL);
  const ac = new AbortController();
  const call = c.client.callTool("greet", { service: "x" }, { signal: ac.signal });
  await asked.promise;
  ac.abort("user gave up");
  assert.equal((await rejection(call)).code, ErrorCode.RequestCancelled);
  await innerAborted.promise;
  const [elicitation] = c.sent("server", "elicitation/create");
  const cancels = c.sent("server", "notifications/cancelled");
  assert.equal(cancels.length, 1);
  assert.equal(cancels[0].params.requestId, elicitation.id);
  await c.client.ping();
  assert.equal(seen.length, 1);
  assert.equal(responseTo(c, c.sent("client", "tools/call")[0].id), undefined);
});

test("progress: a bridged legacy call keeps reporting progress across input rounds on its own token", async () => {
  const c = await connect(
    (s) =>
      s.tool("steps", {}, (_a, ctx) => {
        const round = ctx.requestState === undefined ? 1 : Number(ctx.requestState) + 1;
        ctx.progress(round, 3);
        if (round < 3) return inputRequired({ ok: { method: "elicitation/create", params: NAME_FORM } }, String(round));
        return { content: [{ type: "text", text: `done after ${round}` }] };
      }),
    { ...LEGACY, handlers: { elicitation: () => ({ action: "accept", content: { name: "n" } }) } },
    DUAL,
  );
  const progress: number[] = [];
  const r = await c.client.callTool("steps", {}, { onProgress: (p) => progress.push(p.progress) });
  assert.deepEqual(r.content, [{ type: "text", text: "done after 3" }]);
  assert.deepEqual(progress, [1, 2, 3]);
  const token = c.sent("client", "tools/call")[0].params._meta.progressToken;
  assert.ok(c.sent("server", "notifications/progress").every((n) => n.params.progressToken === token));
});

test("mrtr Supported Requests: prompts/get and resources/read handlers bridge sampling and roots in a legacy session, and go through MRTR rounds for a modern client", async () => {
  const setup = (s: McpServer) => {
    s.prompt("capital", {}, (_a, ctx) => {
      const answer = ctx.inputResponses?.model as { content: { text: string } } | undefined;
      if (answer === undefined) return inputRequired({ model: { method: "sampling/createMessage", params: { messages: [{ role: "user", content: { type: "text", text: "Capital of France?" } }], maxTokens: 10 } } });
      return { messages: [{ role: "user", content: { type: "text", text: `It is ${answer.content.text}` } }] };
    });
    s.resource("file:///roots", { name: "roots" }, (uri, ctx) => {
      const answer = ctx.inputResponses?.roots as { roots: { uri: string }[] } | undefined;
      if (answer === undefined) return inputRequired({ roots: { method: "roots/list" } });
      return { contents: [{ uri, text: answer.roots.map((r) => r.uri).join(",") }] };
    });
  };
  const handlers = { sampling: () => ({ role: "assistant" as const, content: { type: "text" as const, text: "Paris" }, model: "m" }), roots: () => [{ uri: "file:///home" }] };
  for (const era of [LEGACY, MODERN]) {
    const c = await connect(setup, { ...era, handlers }, DUAL);
    assert.deepEqual((await c.client.getPrompt("capital")).messages, [{ role: "user", content: { type: "text", text: "It is Paris" } }]);
    assert.equal(blockText((await c.client.readResource("file:///roots")).contents[0]), "file:///home");
    const bridged = era === LEGACY ? 1 : 0;
    assert.equal(c.sent("server", "sampling/createMessage").length, bridged);
    assert.equal(c.sent("server", "roots/list").length, bridged);
    assert.equal(c.sent("client", "prompts/get").length, 2 - bridged);
  }
});

test("mrtr: a handler that keeps answering input_required is bounded in a legacy session (-32603 naming the bound)", async () => {
  let runs = 0;
  const c = await connect((s) => s.tool("never", {}, () => (runs++, inputRequired({ user: { method: "elicitation/create", params: NAME_FORM } }))), { ...LEGACY, handlers: { elicitation: () => ({ action: "accept", content: { name: "x" } }) } }, { ...DUAL, maxInputRounds: 2 });
  const e = await rejection(c.client.callTool("never"));
  assert.equal(e.code, ErrorCode.InternalError);
  assert.match(e.message, /still needed input after 2 rounds/);
  assert.equal(c.sent("server", "elicitation/create").length, 2);
  assert.equal(runs, 3);
  await c.client.ping();
});

test("mrtr Error Handling, legacy bridge: a failed input request is left out of inputResponses (the handler re-asks); a round in which every input request failed ends the call with that error at once, not after the round bound", async () => {
  // Two inputs, one of which the client cannot answer: the handler sees the other alone and asks again for the missing one.
  const seen: Seen[] = [];
  let asked = 0;
  const c = await connect((s) =>
    s.tool("two", {}, (_a, ctx) => {
      seen.push({ responses: ctx.inputResponses, state: ctx.requestState });
      if (ctx.inputResponses?.user !== undefined) return { content: [{ type: "text" as const, text: "got the user" }] };
      return inputRequired({ user: { method: "elicitation/create", params: NAME_FORM }, where: { method: "roots/list" } });
    }), {
    ...LEGACY,
    handlers: {
      roots: () => [{ uri: "file:///r" }],
      elicitation: () => {
        if (asked++ === 0) throw new Error("no user yet");
        return { action: "accept", content: { name: "octocat" } };
      },
    },
  }, DUAL);
  assert.deepEqual((await c.client.callTool("two")).content, [{ type: "text", text: "got the user" }]);
  assert.deepEqual(seen.map((s) => Object.keys(s.responses ?? {})), [[], ["where"], ["user", "where"]]);

  // Every input failing: one round, then the call fails with the error (the client's handler threw: -32603 from the client).
  const seen2: Seen[] = [];
  const d = await connect(serverWith(seen2), {
    ...LEGACY,
    handlers: {
      elicitation: () => {
        throw new Error("no user here");
      },
    },
  }, DUAL);
  const e = await rejection(d.client.callTool("greet", { service: "x" }));
  assert.equal(e.code, ErrorCode.InternalError);
  assert.match(e.message, /tools\/call could not get the input it needs \(elicitation\/create: .*no user here\)/);
  assert.equal(d.sent("server", "elicitation/create").length, 1);
  assert.deepEqual(seen2.map((s) => s.responses), [undefined]);
  await d.client.ping();
});

test("mrtr: an input_required without inputRequests or requestState is refused in a legacy session too; a state-only answer is retried at once", async () => {
  let runs = 0;
  const c = await connect((s) => {
    s.tool("empty", {}, () => ({ resultType: "input_required" }));
    s.tool("shed", {}, (_a, ctx) => (runs++, ctx.requestState === undefined ? inputRequired(undefined, "half-done") : { resultType: "complete", content: [{ type: "text", text: `resumed ${ctx.requestState}` }] }));
  }, LEGACY, DUAL);
  const e = await rejection(c.client.callTool("empty"));
  assert.equal(e.code, ErrorCode.InternalError);
  assert.match(e.message, /MUST include inputRequests or requestState/);
  assert.deepEqual((await c.client.callTool("shed")).content, [{ type: "text", text: "resumed half-done" }]);
  assert.equal(runs, 2);
  // 2025-11-25 results carry no resultType.
  assert.equal(responseTo(c, c.sent("client", "tools/call")[1].id).result.resultType, undefined);
});

test("mrtr: retry fields sent by a legacy client are not the era's; the handler never sees them", async () => {
  const seen: Seen[] = [];
  const c = await connect(serverWith(seen), { ...LEGACY, handlers: { elicitation: () => ({ action: "decline" }) } }, { ...DUAL, maxInputRounds: 1 });
  await rejection(c.client.request("tools/call", { name: "greet", arguments: {}, requestState: '{"service":"forged"}', inputResponses: { user: { action: "accept", content: { name: "mallory" } } } }));
  assert.deepEqual(seen[0], { responses: undefined, state: undefined });
});

test("mrtr options: the input round bound and the requestState lifetime are checked when the server is made", () => {
  assert.throws(() => new McpServer({ name: "s", version: "1" }, { maxInputRounds: 0 }), RangeError);
  assert.throws(() => new McpServer({ name: "s", version: "1" }, { requestStateTtlMs: -1 }), RangeError);
  assert.throws(() => new McpServer({ name: "s", version: "1" }, { requestStateTtlMs: Number.NaN }), RangeError);
});

test("mrtr requestState: concurrent requests read the clock in the order they came, whatever order the codec's digests and verifications finish in (record/replay hands readings back in order)", async () => {
  // The codec's digest and verify finish when the test says (WebCrypto's order varies); sign is the identity, so the envelope shows.
  const pending: { text: string; done: () => void }[] = [];
  const later = <T>(text: string, value: T) => new Promise<T>((resolve) => pending.push({ text, done: () => resolve(value) }));
  const finish = (fragment: string) => pending.splice(pending.findIndex((p) => p.text.includes(fragment)), 1)[0].done();
  const readings = [1000, 2000, 3000, 4000, 5000, 6000];
  const ttlMs = 60_000;
  const bridge = new InputRequiredBridge({ codec: { sign: (s) => s, verify: (t) => later(t, t), digest: (t) => later(t, `d(${t})`) }, ttlMs, now: () => readings.shift()!, maxRounds: 8 });
  const rc = { protocolVersion: "2026-07-28", signal: new AbortController().signal } as RequestContext;
  const expiryOf = (result: JsonObject) => (JSON.parse(result.requestState as string) as unknown[])[4];
  const ask = () => inputRequired({ user: { method: "elicitation/create", params: NAME_FORM } }, "s");

  // First calls: a, then b; b's digest finishes first.
  const a = bridge.serve("tools/call", { name: "a" }, rc, ask);
  const b = bridge.serve("tools/call", { name: "b" }, rc, ask);
  await Promise.resolve();
  finish('"b"');
  finish('"a"');
  const [sealedA, sealedB] = (await Promise.all([a, b])) as JsonObject[];
  assert.deepEqual([expiryOf(sealedA), expiryOf(sealedB)], [1000 + ttlMs, 2000 + ttlMs]);

  // Retries: a, then b; whenever both have codec work pending, b's finishes first. The expiry
  // check reads the clock as each arrives (3000, 4000); the handlers start in arrival order
  // (verification is taken in turn), and the new state's expiry counts from when each is
  // issued (5000, 6000), not from the retry's arrival: a handler slower than the lifetime
  // must not issue state already expired.
  const retryA = bridge.serve("tools/call", { name: "a", requestState: sealedA.requestState as string }, rc, ask);
  const retryB = bridge.serve("tools/call", { name: "b", requestState: sealedB.requestState as string }, rc, ask);
  let settled = 0;
  void Promise.all([retryA, retryB]).then(
    () => (settled = 1),
    () => (settled = 2),
  );
  while (settled === 0) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (pending.length > 0) finish(pending.some((p) => p.text.includes('"b"')) ? '"b"' : '"a"');
  }
  const [againA, againB] = (await Promise.all([retryA, retryB])) as JsonObject[];
  assert.deepEqual([expiryOf(againA), expiryOf(againB)], [5000 + ttlMs, 6000 + ttlMs]);
});

// basic/utilities/cancellation: a receiver SHOULD stop processing a cancelled request. A
// retry cancelled while its requestState is still being verified (WebCrypto, off the event
// loop) never starts its handler: a tool's effects must not happen for a call given up on.
test("mrtr requestState: a retry cancelled while its state is being verified never runs its handler; it is answered -32800 (dropped as cancelled)", async () => {
  const verifying: (() => void)[] = [];
  const bridge = new InputRequiredBridge({
    codec: { sign: (s) => s, verify: (t) => new Promise<string>((resolve) => verifying.push(() => resolve(t))) },
    ttlMs: 60_000,
    now: () => 1000,
    maxRounds: 8,
  });
  const first = (await bridge.serve("tools/call", { name: "a" }, { protocolVersion: "2026-07-28" } as RequestContext, () => inputRequired({ user: { method: "elicitation/create", params: NAME_FORM } }, "s"))) as JsonObject;
  const controller = new AbortController();
  let runs = 0;
  const retry = bridge.serve("tools/call", { name: "a", requestState: first.requestState as string }, { protocolVersion: "2026-07-28", signal: controller.signal } as RequestContext, () => {
    runs++;
    return { content: [] };
  });
  while (verifying.length === 0) await new Promise<void>((resolve) => setImmediate(resolve));
  controller.abort();
  verifying.shift()!();
  const e = await rejection(Promise.resolve(retry));
  assert.equal(e.code, -32800);
  assert.equal(runs, 0, "the handler never ran");
});
