// Faults on a stream transport, each showing nothing is lost or leaked: partial writes,
// a peer that closes mid-message, a peer that stops reading. Spec: 2025-11-25
// basic/transports ("stdio": newline-delimited messages), basic/lifecycle ("Shutdown":
// the transport closing ends the session), basic/utilities/cancellation. The server side
// is played by the test, writing raw bytes into the client's channel.
import { test } from "node:test";
import assert from "node:assert/strict";
import { StreamChannel, type Sink } from "../../src/transports/channel.js";
import { McpClient } from "../../src/api/index.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { LiveTimersClock } from "../harness/live-timers.js";

/** A sink that records lines, and can be made to stop accepting (a peer that stops reading). */
class RecordingSink implements Sink {
  text = "";
  full = false;
  ended = false;
  write(chunk: string): boolean {
    this.text += chunk;
    return !this.full;
  }
  waitDrain(): void {}
  end(): void {
    this.ended = true;
  }
  /** Complete lines written so far, parsed. */
  messages(): any[] {
    return this.text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l));
  }
}

const flush = () => new Promise<void>((r) => setImmediate(r));

/** Bytes of one line, cut into `pieces` chunks at arbitrary byte offsets (inside characters too). */
function cutLine(message: unknown, pieces: number): Uint8Array[] {
  const bytes = new TextEncoder().encode(JSON.stringify(message) + "\n");
  const out: Uint8Array[] = [];
  const size = Math.ceil(bytes.length / pieces);
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

async function connected(options: { maxQueuedChars?: number; maxStallMs?: number } = {}) {
  const sink = new RecordingSink();
  const clock = new LiveTimersClock();
  const channel = new StreamChannel(sink, { ...options, clock });
  const client = new McpClient({ name: "fault-client", version: "1.0.0" }, { clock, session: { requestTimeoutMs: 30_000 } });
  const connecting = client.connect(channel);
  await flush();
  const [init] = sink.messages();
  assert.equal(init.method, "initialize");
  // The answer arrives in 7-byte writes, cutting the multi-byte server name apart.
  for (const chunk of cutLine({ jsonrpc: "2.0", id: init.id, result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "sérveur ✓ 😀", version: "1" } } }, 40)) channel.push(chunk);
  await connecting;
  return { sink, channel, clock, client };
}

test("faults (stdio framing): a response arriving in many partial writes, cut inside UTF-8 characters, completes the handshake intact", async () => {
  const { client, channel } = await connected();
  assert.equal(client.serverInfo?.name, "sérveur ✓ 😀");
  channel.close();
});

test("faults (stdio framing): the peer closing mid-message rejects every pending request with -32000 and clears every timer", async () => {
  const { sink, channel, clock, client } = await connected();
  const closes: string[] = [];
  client.onClose((r) => closes.push(r));
  const pending = [client.listTools(), client.callTool("slow", {}), client.ping()];
  await flush();
  assert.ok(clock.live.size > 0, "pending requests arm their timeouts");
  const calls = sink.messages().filter((m) => m.method !== undefined && m.method !== "initialize" && m.method !== "notifications/initialized");
  assert.equal(calls.length, 3);
  // Half a response, then the stream ends: the half line is no message and nothing answers the rest.
  channel.push(new TextEncoder().encode('{"jsonrpc":"2.0","id":' + calls[0].id + ',"result":{"to'));
  channel.endInput();
  channel.closeWith("the peer closed the stream");
  const settled = await Promise.allSettled(pending);
  for (const s of settled) {
    assert.equal(s.status, "rejected");
    assert.equal((s as PromiseRejectedResult).reason.code, ErrorCode.ConnectionClosed);
  }
  assert.equal(clock.live.size, 0, "a timer outlived the connection");
  assert.ok(sink.ended, "the sink was ended");
  assert.ok(closes.length <= 1, "onClose fired more than once");
});

test("faults (stdio framing): a peer that stops reading is a dead connection once a queue over maxQueuedChars sees no drain for maxStallMs; pending requests fail, memory stays bounded", async () => {
  const { sink, channel, clock, client } = await connected({ maxQueuedChars: 2_000, maxStallMs: 10_000 });
  sink.full = true;
  const written = sink.messages().length;
  const calls: Promise<unknown>[] = [];
  for (let i = 0; i < 20; i++) calls.push(client.callTool("echo", { text: "x".repeat(100) }));
  await flush();
  assert.ok(sink.messages().length - written < 20, "the calls wait in the queue");
  assert.equal(channel.closed, false, "a queue over the bound is not yet a dead peer");
  clock.advance(10_000);
  const settled = await Promise.allSettled(calls);
  assert.ok(settled.every((s) => s.status === "rejected"), "a request to a peer that never reads cannot succeed");
  assert.ok(settled.every((s) => (s as PromiseRejectedResult).reason.code === ErrorCode.ConnectionClosed));
  assert.ok(sink.ended);
  assert.equal(clock.live.size, 0);
  assert.ok(sink.messages().length - written < 20, "the queue was dropped, not written to a peer known not to read");
});
