// Spec: basic/utilities/progress (a requestor's progress handler), basic/lifecycle
// (connecting); the API's own contract that application code running inside a callback of
// the kernel (a listener, onProgress, onEvent) cannot break the connection it runs on.
import { test } from "node:test";
import assert from "node:assert/strict";
import { connect, rejection, CLIENT, SERVER } from "./setup.js";
import { McpClient } from "../../src/api/client.js";
import { McpServer } from "../../src/api/server.js";
import { createMemoryPair } from "../../src/transports/memory.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";

test("progress: an onProgress that throws goes to the client's onError; the call still resolves with its result", async () => {
  const errors: unknown[] = [];
  const { client } = await connect(
    (s) =>
      s.tool("p", {}, async (_args, ctx) => {
        ctx.progress(1, 2);
        return { content: [{ type: "text", text: "done" }] };
      }),
    { onError: (e) => errors.push(e) },
  );
  const result = await client.callTool("p", {}, { onProgress: () => { throw new Error("listener bug"); } });
  assert.deepEqual(result.content, [{ type: "text", text: "done" }]);
  assert.deepEqual(errors.map((e) => (e as Error).message), ["listener bug"]);
});

test("lifecycle: a client closed by a listener of its own `initialized` event does not report connect() as done: it rejects -32000, as when the transport closes first", async () => {
  const server = new McpServer(SERVER);
  const [s, c] = createMemoryPair();
  server.connect(s);
  const client: McpClient = new McpClient(CLIENT, { onEvent: (e) => void (e.type === "initialized" && client.close()) });
  const e = await rejection(client.connect(c));
  assert.equal(e.code, ErrorCode.ConnectionClosed);
  assert.equal(client.protocolVersion, undefined);
});
