/**
 * The interop checks: one table, run over every (client, server, transport, era) pairing
 * by the `*.test.ts` files of this directory. Each check names the spec page and the
 * requirement it exercises across the two implementations. The servers all offer the same
 * surface (our demo server; `fixtures/interop/surface.mjs` for the SDK servers), so the
 * expected values are the same everywhere.
 *
 * A pairing can mark checks `skip` (the peer cannot do it: the reason names the peer's
 * limitation) or `todo` (our side cannot yet: the reason names what is missing). A todo
 * check still runs, so it starts passing the day the gap is closed.
 */
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { ELICITED, guard, rejectionCode, SAMPLED, type Driver } from "./harness.js";

/** Check ids, in the order they run. */
export const CHECKS = [
  "handshake",
  "ping",
  "tools-list",
  "text",
  "image",
  "structured",
  "tool-error",
  "unknown-tool",
  "resource-text",
  "resource-blob",
  "resource-template",
  "subscribe",
  "prompts",
  "completion",
  "progress",
  "cancellation",
  "elicitation",
  "sampling",
] as const;
export type CheckId = (typeof CHECKS)[number];

/** One pairing. */
export interface Pairing {
  /** e.g. "SDK 1.x client → our server, stdio, 2025-11-25". */
  title: string;
  /** Connects a client to a running server (starting whatever it needs). */
  connect(): Promise<Driver>;
  /** Stops what `connect` started (after the client closed). */
  stop?(): Promise<void>;
  /** What the client must have negotiated. */
  expect: { era: "legacy" | "modern"; version: string; serverName: string };
  skip?: Partial<Record<CheckId, string>>;
  todo?: Partial<Record<CheckId, string>>;
  /** Every check is a todo for this reason (the pairing cannot even connect yet). */
  todoAll?: string;
}

/** Failure guard for one check (they finish in milliseconds when they pass). */
const CHECK_TIMEOUT_MS = 8_000;

const textOf = (r: { content: unknown[] }, i = 0): string => {
  const c = r.content[i] as { type: string; text?: string };
  assert.equal(c.type, "text");
  return c.text!;
};

type Body = (d: Driver, p: Pairing) => Promise<void>;

const BODIES: Record<CheckId, { name: string; body: Body }> = {
  handshake: {
    name: "basic/lifecycle + draft server/discover: the client MUST end up on a version both speak (the latest of each era) and learn the server's info",
    async body(d, p) {
      assert.equal(d.era, p.expect.era);
      assert.equal(d.protocolVersion, p.expect.version);
      assert.equal(d.serverName, p.expect.serverName);
    },
  },
  ping: {
    name: "basic/utilities/ping: the receiver MUST respond promptly with an empty response",
    async body(d) {
      await d.ping();
    },
  },
  "tools-list": {
    name: "server/tools (Listing Tools): tools/list returns every tool with its inputSchema, and outputSchema where declared",
    async body(d) {
      const tools = await d.listTools();
      const names = tools.map((t) => t.name);
      for (const n of ["echo", "test_image_content", "interop_structured", "test_error_handling", "test_tool_with_progress", "test_elicitation", "test_sampling"]) assert.ok(names.includes(n), `${n} listed`);
      const structured = tools.find((t) => t.name === "interop_structured")!;
      assert.deepEqual((structured.outputSchema as { required?: string[] }).required, ["sum"]);
    },
  },
  text: {
    name: "server/tools (Text Content): a tool's text content arrives unchanged",
    async body(d) {
      const r = await d.callTool("echo", { text: "héllo, wörld ✓" });
      assert.equal(textOf(r), "héllo, wörld ✓");
      assert.notEqual(r.isError, true);
    },
  },
  image: {
    name: "server/tools (Image Content): image content MUST carry base64 data and a mimeType",
    async body(d) {
      const r = await d.callTool("test_image_content", {});
      const c = r.content[0] as { type: string; data: string; mimeType: string };
      assert.equal(c.type, "image");
      assert.equal(c.mimeType, "image/png");
      assert.equal(Buffer.from(c.data, "base64").subarray(1, 4).toString("latin1"), "PNG");
    },
  },
  structured: {
    name: "server/tools (Output Schema): servers MUST provide structured results that conform to the outputSchema (and SHOULD mirror them as text)",
    async body(d) {
      const r = await d.callTool("interop_structured", { a: 2, b: 3 });
      assert.deepEqual(r.structuredContent, { sum: 5 });
      assert.deepEqual(JSON.parse(textOf(r)), { sum: 5 });
    },
  },
  "tool-error": {
    name: "server/tools (Tool Execution Errors): a failing tool reports isError: true in the result, not as a protocol error",
    async body(d) {
      const r = await d.callTool("test_error_handling", {});
      assert.equal(r.isError, true);
      assert.match(textOf(r), /intentionally returns an error/);
    },
  },
  "unknown-tool": {
    name: "server/tools (Protocol Errors): an unknown tool is a JSON-RPC error -32602",
    async body(d) {
      assert.equal(await rejectionCode(d.callTool("no_such_tool", {})), -32602);
    },
  },
  "resource-text": {
    name: "server/resources (Reading Resources): text contents carry uri, mimeType and text",
    async body(d) {
      const r = await d.readResource("test://static-text");
      assert.deepEqual(r.contents, [{ uri: "test://static-text", mimeType: "text/plain", text: "This is the content of the static text resource." }]);
    },
  },
  "resource-blob": {
    name: "server/resources (Binary Content): blob contents MUST be base64",
    async body(d) {
      const r = await d.readResource("test://static-binary");
      const c = r.contents[0] as { uri: string; blob: string; mimeType: string };
      assert.equal(c.uri, "test://static-binary");
      assert.equal(c.mimeType, "image/png");
      assert.equal(Buffer.from(c.blob, "base64").subarray(1, 4).toString("latin1"), "PNG");
    },
  },
  "resource-template": {
    name: "server/resources (Resource Templates): a URI matching a template is readable, with its variable substituted",
    async body(d) {
      const r = await d.readResource("test://template/42/data");
      const c = r.contents[0] as { uri: string; text: string };
      assert.equal(c.uri, "test://template/42/data");
      assert.deepEqual(JSON.parse(c.text), { id: "42", templateTest: true, data: "Data for ID: 42" });
    },
  },
  subscribe: {
    name: "server/resources (Subscriptions) + draft subscriptions/listen: a subscribed client is sent notifications/resources/updated for the URI",
    async body(d) {
      const uri = "test://watched-resource";
      await d.subscribe(uri);
      const updated = d.nextUpdated();
      const r = await d.callTool("test_trigger_resource_update", {});
      assert.match(textOf(r), /is now at version \d+/);
      const n = await guard(updated, 5_000, "notifications/resources/updated");
      assert.equal(n.uri, uri);
      // draft subscriptions: notifications on a listen stream carry its id for demultiplexing.
      if (d.era === "modern") assert.ok(n._meta?.["io.modelcontextprotocol/subscriptionId"] !== undefined, "subscriptionId in _meta");
      const version = /version (\d+)/.exec(textOf(r))![1];
      const read = await d.readResource(uri);
      assert.equal((read.contents[0] as { text: string }).text, `Watched resource content, version ${version}`);
    },
  },
  prompts: {
    name: "server/prompts: prompts/list lists them and prompts/get fills in the arguments",
    async body(d) {
      const names = (await d.listPrompts()).map((p) => p.name);
      assert.ok(names.includes("test_simple_prompt") && names.includes("test_prompt_with_arguments"));
      const simple = await d.getPrompt("test_simple_prompt");
      assert.deepEqual(simple.messages, [{ role: "user", content: { type: "text", text: "This is a simple prompt for testing." } }]);
      const withArgs = await d.getPrompt("test_prompt_with_arguments", { arg1: "α", arg2: "β" });
      assert.equal((withArgs.messages[0].content as { text: string }).text, "Prompt with arguments: arg1='α', arg2='β'");
    },
  },
  completion: {
    name: "server/utilities/completion: completion/complete returns matching values (at most 100) for prompt arguments and template variables",
    async body(d) {
      const p = await d.complete({ type: "ref/prompt", name: "test_prompt_with_arguments" }, { name: "arg1", value: "pa" });
      assert.deepEqual(p.completion.values, ["paris", "park", "party"]);
      const t = await d.complete({ type: "ref/resource", uri: "test://template/{id}/data" }, { name: "id", value: "4" });
      assert.deepEqual(t.completion.values, ["456"]);
    },
  },
  progress: {
    name: "basic/utilities/progress: progress notifications reference the request's token and the progress value MUST increase",
    async body(d) {
      const seen: { progress: number; total?: number }[] = [];
      const r = await d.callTool("test_tool_with_progress", {}, { onProgress: (p) => seen.push(p) });
      assert.equal(textOf(r), "Progress tool completed");
      // The sender MAY coalesce updates (both parties SHOULD rate-limit; ours keeps the latest
      // per interval), so what must hold is: the first arrives, each is one the tool sent, and
      // the values increase.
      assert.ok(seen.length >= 1, "at least one progress notification");
      assert.deepEqual([seen[0].progress, seen[0].total], [0, 100]);
      for (const p of seen) assert.ok([0, 50, 100].includes(p.progress) && p.total === 100, `progress ${JSON.stringify(p)}`);
      for (let i = 1; i < seen.length; i++) assert.ok(seen[i].progress > seen[i - 1].progress, "progress MUST increase");
    },
  },
  cancellation: {
    name: "basic/utilities/cancellation: the sender's notifications/cancelled reaches the receiver, which stops the request; the sender gets no result",
    async body(d) {
      const ac = new AbortController();
      const blocked = d.callTool("interop_block", {}, { signal: ac.signal, onProgress: () => ac.abort("interop cancel") });
      await assert.rejects(blocked);
      const seen = await guard(d.callTool("interop_cancel_seen", {}), 3_000, "the server to see the cancellation");
      assert.match(textOf(seen), /^cancelled: /);
    },
  },
  elicitation: {
    name: "client/elicitation (legacy request, modern input_required): the server's form request reaches the client and its accepted content comes back",
    async body(d) {
      const r = await d.callTool("test_elicitation", { message: "Who are you?" });
      assert.equal(textOf(r), `User response: action=accept, content=${JSON.stringify(ELICITED)}`);
    },
  },
  sampling: {
    name: "client/sampling (legacy request, modern input_required): the server's sampling request reaches the client and the model's message comes back",
    async body(d) {
      const r = await d.callTool("test_sampling", { prompt: "Say something" });
      assert.equal(textOf(r), `LLM response: ${SAMPLED}`);
    },
  },
};

/** The 2026-07-28 draft has no ping (basic/utilities/ping is gone; liveness is the transport's). */
const NO_PING = "2026-07-28 removed ping (the draft has no basic/utilities/ping)";

/** Registers every check for `pairing` as one `describe`, sharing one connection. */
export function runPairing(pairing: Pairing): void {
  describe(pairing.title, () => {
    let connection: Promise<Driver> | undefined;
    const connect = (): Promise<Driver> => (connection ??= guard(pairing.connect(), 15_000, "the client to connect"));
    after(async () => {
      if (connection !== undefined) await connection.then((d) => d.close()).catch(() => {});
      await pairing.stop?.();
    });
    for (const id of CHECKS) {
      const { name, body } = BODIES[id];
      const skip = pairing.skip?.[id] ?? (id === "ping" && pairing.expect.era === "modern" ? NO_PING : undefined);
      const todo = pairing.todoAll ?? pairing.todo?.[id];
      const options = skip !== undefined ? { skip } : todo !== undefined ? { todo, timeout: CHECK_TIMEOUT_MS } : { timeout: CHECK_TIMEOUT_MS };
      test(name, options, async () => body(await connect(), pairing));
    }
  });
}
