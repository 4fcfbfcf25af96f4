// Spec: draft basic/patterns/mrtr (InputRequiredResult, "Server Requirements": input only
// through input_required, requestState integrity), draft basic/versioning (one handler,
// both eras), 2025-11-25 client/{elicitation,sampling,roots}. ctx.elicit / ctx.sample /
// ctx.listRoots written once: real server-to-client requests in a legacy session,
// input_required rounds for a modern request, with answers replayed on each retry.
import { test } from "node:test";
import assert from "node:assert/strict";
import { connect } from "./setup.js";
import type { McpServer, McpServerOptions } from "../../src/api/server.js";
import type { ServerContext } from "../../src/api/context.js";
import type { JsonObject } from "../../src/jsonrpc/types.js";

const DUAL: McpServerOptions = { session: { versions: ["2026-07-28", "2025-11-25"] } };
const MODERN = { session: { versions: ["2026-07-28" as const] } };
const LEGACY = { session: { versions: ["2025-11-25" as const] } };
const FORM = (message: string) => ({ message, requestedSchema: { type: "object" as const, properties: { v: { type: "string" as const } }, required: ["v"] } });

/** Asks twice in sequence, then twice at once, then for the roots; counts its runs. */
function surveyor(runs: { n: number }) {
  return (s: McpServer) =>
    s.tool("survey", {}, async (_args: JsonObject, ctx: ServerContext) => {
      runs.n++;
      const first = await ctx.elicit(FORM("first?"));
      const second = await ctx.elicit(FORM("second?"));
      const [a, b] = await Promise.all([ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "a" } }], maxTokens: 5 }), ctx.elicit(FORM("third?"))]);
      const roots = await ctx.listRoots();
      const text = [first.content?.v, second.content?.v, (a.content as { text: string }).text, b.content?.v, roots.roots.length].join(",");
      return { content: [{ type: "text" as const, text }] };
    });
}

const clientHandlers = () => {
  let n = 0;
  return {
    elicitation: (p: JsonObject) => ({ action: "accept" as const, content: { v: `${String(p.message).replace("?", "")}#${++n}` } }),
    sampling: () => ({ role: "assistant" as const, content: { type: "text" as const, text: "model" }, model: "m" }),
    roots: () => [{ uri: "file:///r" }],
  };
};

test("mrtr: in a modern request, ctx.elicit/sample/listRoots become input_required rounds; the handler re-runs and earlier answers are replayed", async () => {
  const runs = { n: 0 };
  const c = await connect(surveyor(runs), { ...MODERN, handlers: clientHandlers() }, DUAL);
  const r = await c.client.callTool("survey", {});
  assert.deepEqual(r.content, [{ type: "text", text: "first#1,second#2,model,third#3,1" }]);
  // No server-to-client request on the wire in the modern era.
  assert.equal(c.sent("server", "elicitation/create").length, 0);
  assert.equal(c.sent("server", "sampling/createMessage").length, 0);
  // Rounds: first, second, the two concurrent asks together, roots, then the result.
  assert.equal(runs.n, 5);
  const rounds = c.wire.filter((w) => w.from === "server" && (w.message as any).result?.resultType === "input_required").map((w) => Object.keys((w.message as any).result.inputRequests));
  assert.deepEqual(rounds, [["ask-0"], ["ask-1"], ["ask-2", "ask-3"], ["ask-4"]]);
  // The state is sealed: what travels is not the plain answers.
  const state = c.wire.map((w) => (w.message as any).result?.requestState).find((s) => typeof s === "string") as string;
  assert.doesNotMatch(state, /first#1/);
});

test("draft basic/versioning: the same handler in a legacy session sends real server-to-client requests and runs once", async () => {
  const runs = { n: 0 };
  const c = await connect(surveyor(runs), { ...LEGACY, handlers: clientHandlers() }, DUAL);
  const r = await c.client.callTool("survey", {});
  assert.deepEqual(r.content, [{ type: "text", text: "first#1,second#2,model,third#3,1" }]);
  assert.equal(runs.n, 1);
  assert.equal(c.sent("server", "elicitation/create").length, 3);
});

test("mrtr: a handler that swallows the pending ask still answers input_required (the request is not finished)", async () => {
  const c = await connect(
    (s) =>
      s.tool("stubborn", {}, async (_a: JsonObject, ctx: ServerContext) => {
        try {
          const r = await ctx.elicit(FORM("v?"));
          return { content: [{ type: "text" as const, text: String(r.content?.v) }] };
        } catch {
          return { content: [{ type: "text" as const, text: "gave up" }], isError: true };
        }
      }),
    { ...MODERN, handlers: clientHandlers() },
    DUAL,
  );
  const r = await c.client.callTool("stubborn", {});
  assert.deepEqual(r.content, [{ type: "text", text: "v#1" }]);
});

test("mrtr: prompts/get and resources/read may ask too; a client without elicitation gets the spec's error, not a hang", async () => {
  const setup = (s: McpServer) => {
    s.prompt("ask", {}, async (_a, ctx) => {
      const r = await ctx.elicit(FORM("topic?"));
      return { messages: [{ role: "user" as const, content: { type: "text" as const, text: String(r.content?.v) } }] };
    });
    s.resource("mem://x", { name: "x" }, async (uri, ctx) => {
      const r = await ctx.elicit(FORM("which?"));
      return { contents: [{ uri, text: String(r.content?.v) }] };
    });
  };
  const c = await connect(setup, { ...MODERN, handlers: clientHandlers() }, DUAL);
  const p = await c.client.getPrompt("ask", {});
  assert.equal((p.messages[0].content as { text: string }).text, "topic#1");
  const res = await c.client.readResource("mem://x");
  assert.equal((res.contents[0] as { text: string }).text, "which#2");
  const bare = await connect(setup, { ...MODERN }, DUAL);
  await assert.rejects(bare.client.getPrompt("ask", {}), (e: { code?: number }) => e.code === -32021);
});

test("draft mrtr Client Requirements: the client MUST construct the requested inputs before retrying; when its handler cannot, the call fails at once with that error instead of retrying without it (and being asked again, round after round)", async () => {
  const runs = { n: 0 };
  let asked = 0;
  const c = await connect(surveyor(runs), {
    ...MODERN,
    handlers: {
      ...clientHandlers(),
      elicitation: (p: JsonObject) => {
        if (++asked === 1) throw new Error("UI unavailable");
        return { action: "accept" as const, content: { v: String(p.message) } };
      },
    },
  }, DUAL);
  const e = await c.client.callTool("survey").then(() => assert.fail("resolved"), (err) => err);
  assert.match(e.message, /elicitation\/create input could not be provided: UI unavailable/);
  assert.deepEqual({ asked, runs: runs.n }, { asked: 1, runs: 1 });
  assert.equal(c.sent("client", "tools/call").length, 1, "no retry went out");
  // The client serves on: the next call gathers its inputs and completes.
  assert.equal(((await c.client.callTool("survey")).content[0] as { text: string }).text, "first?,second?,model,third?,1");
});

test("mrtr Error Handling (servers SHOULD ignore what they do not recognize): answers to asks never issued (sent with the first request, before any round) never stand in for the user's answer", async () => {
  let shown = 0;
  const decline = { elicitation: () => (shown++, { action: "decline" as const }) };
  const c = await connect((s) => s.tool("approve", {}, async (_a: JsonObject, ctx: ServerContext) => ({ content: [{ type: "text" as const, text: (await ctx.elicit(FORM("approve?"))).action }] })), { ...MODERN, handlers: decline }, DUAL);
  // The first request already carries an "accept" for ask-0: ignored, the client is asked and declines.
  const forged = { inputResponses: { "ask-0": { action: "accept", content: { v: "x" } }, "ask-7": { action: "accept" } } };
  // (The client kernel runs the rounds: the server's input_required reaches the user, whose answer is the one used.)
  const r = await c.client.request("tools/call", { name: "approve", arguments: {}, ...forged });
  assert.deepEqual(r.content, [{ type: "text", text: "decline" }]);
  assert.equal(shown, 1, "the user was asked");
  const rounds = c.wire.filter((w) => w.from === "server" && (w.message as any).result?.resultType === "input_required").map((w) => Object.keys((w.message as any).result.inputRequests));
  assert.deepEqual(rounds, [["ask-0"]]);
});

test("draft basic/patterns/mrtr (input only through input_required): ctx.request of a method that is no input request, inside a modern request, is refused -32600 saying a 2026-07-28 server sends no requests, not that initialization is pending", async () => {
  let refused: { code?: number; message?: string } = {};
  const c = await connect(
    (s) =>
      s.tool("custom", {}, async (_a: JsonObject, ctx: ServerContext) => {
        refused = await ctx.request("x/custom", {}).then(() => ({}), (e: { code: number; message: string }) => e);
        return { content: [] };
      }),
    MODERN,
    DUAL,
  );
  await c.client.callTool("custom");
  assert.equal(refused.code, -32600);
  assert.match(refused.message ?? "", /a 2026-07-28 server sends no requests/);
});

test("draft basic/patterns/mrtr (input only through input_required): ctx.elicit / ctx.sample on a modern request's context kept past its answer (work left running after the tool returned) reject -32600 saying the request is answered, an McpError, not the internal InputPending claiming the input was requested", { timeout: 10_000 }, async () => {
  let kept: ServerContext | undefined;
  const c = await connect(
    (s) =>
      s.tool("start", {}, (_a: JsonObject, ctx: ServerContext) => {
        kept = ctx;
        return { content: [{ type: "text", text: "started" }] };
      }),
    { ...MODERN, handlers: clientHandlers() },
    DUAL,
  );
  await c.client.callTool("start");
  for (const late of [kept!.elicit(FORM("later?")), kept!.sample({ messages: [{ role: "user", content: { type: "text", text: "a" } }], maxTokens: 5 })]) {
    const e = await late.then(() => assert.fail("a late ask resolved"), (e: { name: string; code: number; message: string }) => e);
    assert.equal(e.name, "McpError", e.message);
    assert.equal(e.code, -32600);
    assert.match(e.message, /the request this was for is answered/);
  }
  c.client.close();
});

test("draft mrtr Server Requirements (servers MUST NOT send inputRequests the client has not declared): ctx.elicit in a mode the request's client did not declare rejects with -32021 and asks nothing, so the handler can fall back as in a legacy session; uncaught, the call still gets -32021", { timeout: 10_000 }, async () => {
  const URL_ASK = { mode: "url" as const, message: "Sign in", url: "https://example.com/sign-in" };
  const setup = (s: McpServer) => {
    s.tool("login", {}, async (_args: JsonObject, ctx: ServerContext) => {
      try {
        return { content: [{ type: "text" as const, text: JSON.stringify(await ctx.elicit(URL_ASK)) }] };
      } catch (e: any) {
        if (e?.name === "InputPending") throw e;
        return { content: [{ type: "text" as const, text: `fallback ${e.code} ${JSON.stringify(e.data)}` }] };
      }
    });
    s.tool("strict", {}, async (_args: JsonObject, ctx: ServerContext) => {
      await ctx.elicit(URL_ASK);
      return { content: [] };
    });
  };
  let asked = 0;
  const elicitation = () => (asked++, { action: "accept" as const });
  for (const versions of [MODERN, LEGACY]) {
    const formOnly = await connect(setup, { ...versions, handlers: { elicitation } }, versions);
    const r = await formOnly.client.callTool("login", {});
    const code = versions === MODERN ? -32021 : -32602;
    assert.deepEqual(r.content, [{ type: "text", text: `fallback ${code} {"requiredCapabilities":{"elicitation":{"url":{}}}}` }], versions.session.versions[0]);
    assert.equal(asked, 0, "the client was never asked");
    assert.ok(!formOnly.wire.some((w) => w.message.result?.resultType === "input_required"), "no input_required went out");
    formOnly.client.close();
  }
  const formOnly = await connect(setup, { ...MODERN, handlers: { elicitation } }, MODERN);
  await assert.rejects(formOnly.client.callTool("strict", {}), (e: { code?: number; data?: unknown }) => e.code === -32021 && JSON.stringify(e.data) === '{"requiredCapabilities":{"elicitation":{"url":{}}}}');
  // A client that declared the mode is asked, in a round.
  const both = await connect(setup, { ...MODERN, capabilities: { elicitation: { form: {}, url: {} } }, handlers: { elicitation } }, MODERN);
  assert.deepEqual((await both.client.callTool("login", {})).content, [{ type: "text", text: '{"action":"accept"}' }]);
  assert.equal(asked, 1);
});

test("client/sampling (Message Content Constraints: a user message with tool results MUST contain ONLY tool results) and client/elicitation (the url MUST contain a valid URL) + draft basic/versioning (one handler, both eras): ctx.sample / ctx.elicit with params their method refuses reject with -32602 and ask nothing in a modern request, as a legacy session refuses to send them, so the handler can fall back (found by review: the ask was left open and the whole call failed -32603 as an invalid input_required)", { timeout: 10_000 }, async () => {
  const mixed = [
    { role: "user" as const, content: { type: "text" as const, text: "weather?" } },
    { role: "assistant" as const, content: { type: "tool_use" as const, id: "a", name: "w", input: {} } },
    { role: "user" as const, content: [{ type: "tool_result" as const, toolUseId: "a", content: [] }, { type: "text" as const, text: "and" }] },
  ];
  const asks: [string, (ctx: ServerContext) => Promise<unknown>, RegExp][] = [
    ["sample", (ctx) => ctx.sample({ messages: mixed, maxTokens: 5, tools: [{ name: "w", inputSchema: { type: "object" } }] }), /tool results/],
    ["elicit", (ctx) => ctx.elicit({ mode: "url", message: "Sign in", url: "not a url" }), /URI/],
  ];
  for (const versions of [MODERN, LEGACY]) {
    const era = versions.session.versions[0];
    let asked = 0;
    const setup = (s: McpServer) => {
      for (const [name, ask] of asks) {
        s.tool(name, {}, async (_args: JsonObject, ctx: ServerContext) => {
          try {
            await ask(ctx);
            return { content: [{ type: "text" as const, text: "asked" }] };
          } catch (e: any) {
            if (e?.name === "InputPending") throw e;
            return { content: [{ type: "text" as const, text: `fallback ${e.code} ${e.message} ${JSON.stringify(e.data)}` }] };
          }
        });
      }
    };
    const c = await connect(setup, {
      ...versions,
      capabilities: { sampling: { tools: {} }, elicitation: { form: {}, url: {} } },
      handlers: { sampling: () => (asked++, { role: "assistant" as const, content: { type: "text" as const, text: "x" }, model: "m" }), elicitation: () => (asked++, { action: "accept" as const }) },
    }, versions);
    for (const [name, , why] of asks) {
      const text = ((await c.client.callTool(name, {})).content[0] as { text: string }).text;
      assert.match(text, new RegExp(`^fallback -32602 invalid ${name === "sample" ? "sampling/createMessage" : "elicitation/create"} params `), `${era} ${name}: ${text}`);
      assert.match(text, why, `${era} ${name}`);
    }
    assert.equal(asked, 0, `${era}: the client was never asked`);
    assert.ok(!c.wire.some((w) => w.message.result?.resultType === "input_required"), `${era}: no input_required went out`);
    c.client.close();
  }
});

test("draft mrtr Supported Requests (servers MUST NOT send InputRequiredResult on requests other than prompts/get, resources/read, tools/call): ctx.elicit / ctx.listRoots in a modern completion/complete or resources/list rejects at once saying it cannot ask there, and the handler can fall back; it was left pending as 'input ask-0 is requested from the client (input_required)', which no round would ever carry (found by review)", { timeout: 10_000 }, async () => {
  const seen: string[] = [];
  const c = await connect(
    (s) => {
      s.prompt("p", { arguments: [{ name: "a" }], complete: { a: async (_v, { ctx }) => {
        try {
          return (await ctx.listRoots()).roots.map((r) => r.uri);
        } catch (e) {
          seen.push((e as Error).message);
          return ["fallback"];
        }
      } } }, () => ({ messages: [] }));
      s.resourceTemplate("mem:///{id}", { name: "t", list: async (ctx) => (await ctx.elicit(FORM("which?")), [{ uri: "mem:///1", name: "one" }]) }, () => undefined);
    },
    { ...MODERN, handlers: clientHandlers() },
    DUAL,
  );
  assert.deepEqual((await c.client.complete({ type: "ref/prompt", name: "p" }, { name: "a", value: "" })).completion.values, ["fallback"]);
  assert.deepEqual(seen, ["roots/list cannot be asked while serving completion/complete in 2026-07-28: only tools/call, prompts/get and resources/read may ask the client for input"]);
  await assert.rejects(c.client.listResources(), (e: { code: number; message: string }) => e.code === -32603 && e.message === "elicitation/create cannot be asked while serving resources/list in 2026-07-28: only tools/call, prompts/get and resources/read may ask the client for input");
  assert.equal(c.wire.filter((w) => w.from === "server" && w.message.result?.resultType === "input_required").length, 0);
  // A legacy session's completer still asks the client for real.
  const legacy = await connect((s) => s.prompt("p", { arguments: [{ name: "a" }], complete: { a: async (_v, { ctx }) => (await ctx.listRoots()).roots.map((r) => r.uri) } }, () => ({ messages: [] })), { ...LEGACY, handlers: clientHandlers() }, DUAL);
  assert.deepEqual((await legacy.client.complete({ type: "ref/prompt", name: "p" }, { name: "a", value: "" })).completion.values, ["file:///r"]);
});
