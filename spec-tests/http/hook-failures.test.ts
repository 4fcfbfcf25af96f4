/**
 * An application's session hooks that throw, on every kind of HTTP session: the handler
 * answers or reports it, and nothing is left behind or thrown where no one catches it (a
 * socket's close event: an uncaught exception ends a Node process).
 *
 * Spec: the design card (errors go out as values; the connection and other requests
 * survive bad input); 2025-11-25 `basic/transports` (a session id the client never learns
 * names no session).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHttpHandler } from "../../src/transports/http-server.js";
import { call, initializeMessage, makeHandler, post, setupWith, SseReader, Tools, until } from "./helpers.js";
import { modernRequest, postModern, MV } from "./modern-helpers.js";

test("a modern request whose client goes away, with an onClose that throws: a handler-error diagnostic, not an exception out of the stream's cancel", async () => {
  const tools = new Tools();
  const diagnostics: string[] = [];
  const base = setupWith(tools, { onClose: () => { throw new Error("onClose bug"); } });
  const handler = createHttpHandler({
    sessionIdleMs: 0,
    modernStreamAfterMs: 0,
    onDiagnostic: (d) => void diagnostics.push(d.code),
    createSession: () => {
      const s = base();
      return { ...s, options: { ...s.options, versions: [MV, "2025-11-25"] } };
    },
  });
  const res = await postModern(handler, modernRequest(1, "tools/call", { name: "wait" }));
  await tools.waiting();
  const sse = new SseReader(res);
  await sse.cancel();
  await until(() => diagnostics.includes("handler-error"));
  // Another request is served as before.
  const next = await postModern(handler, modernRequest(2, "tools/call", { name: "echo", arguments: { text: "still" } }));
  assert.equal(next.status, 200);
});

test("a Streamable HTTP session whose onOpen throws: the initialize gets 500 and no session stays (its onClose runs)", async () => {
  const tools = new Tools();
  const { handler } = makeHandler(tools, { createSession: setupWith(tools, { onOpen: () => { throw new Error("onOpen bug"); } }) });
  const r = await post(handler, initializeMessage());
  assert.equal(r.status, 500);
  assert.equal(handler.sessionCount, 0);
  assert.equal(tools.closed.length, 1);
});

test("a stateless handler's POSTs in progress are no sessions: handler.session and terminate do not reach them by their table keys", async () => {
  const tools = new Tools();
  const { handler } = makeHandler(tools, { stateless: true });
  const sse = new SseReader(await post(handler, call(1, "wait"), undefined, "2025-11-25"));
  await sse.message();
  assert.equal(handler.sessionCount, 1);
  assert.equal(handler.session("stateless-1"), undefined);
  assert.equal(handler.terminate("stateless-1"), false);
  tools.release();
  await sse.rest();
});
