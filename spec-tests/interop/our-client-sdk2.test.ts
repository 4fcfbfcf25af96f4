// Interop: our McpClient against a server on the official TypeScript SDK 2.x
// (fixtures/interop/sdk2-server.mjs: serveStdio and createMcpHandler, dual-era) in a child
// process, over stdio and Streamable HTTP, in both eras. The checks are in checks.ts.
import assert from "node:assert/strict";
import { test } from "node:test";
import { McpClient } from "../../src/api/client.js";
import { spawnStdioServer } from "../../src/transports/stdio.js";
import { httpClientTransport, type HttpClientOptions } from "../../src/transports/http-client.js";
import { runPairing, type Pairing } from "./checks.js";
import { ourDriver, type OurEra } from "./drivers.js";
import { draftRequestHeaders, fixtureCommand, guard, sourceFixture, startHttpPeer, type HttpPeer } from "./harness.js";

const SDK2_SERVER = sourceFixture("sdk2-server.mjs");
const serverName = "interop-sdk-server";
const LEGACY = { era: "legacy" as const, version: "2025-11-25", serverName };
const MODERN = { era: "modern" as const, version: "2026-07-28", serverName };

/** createMcpHandler serves 2025-era HTTP statelessly: a fresh server per POST, no session. */
const STATELESS = "SDK 2.x createMcpHandler serves the 2025 era statelessly (a fresh server per request): it cannot send server-to-client requests or tie a later notifications/cancelled to a request";

function stdio(era: OurEra, expect: Pairing["expect"], extra: Partial<Pairing> = {}): void {
  runPairing({
    title: `our client (${era}) → SDK 2.x server, stdio, ${expect.version}`,
    connect() {
      const { command, args } = fixtureCommand(SDK2_SERVER, "--stdio");
      return ourDriver(spawnStdioServer(command, args, { stderr: "inherit" }), era);
    },
    expect,
    ...extra,
  });
}

function http(era: OurEra, expect: Pairing["expect"], extra: Partial<Pairing> = {}, options: HttpClientOptions = {}, note = ""): void {
  let peer: HttpPeer | undefined;
  runPairing({
    title: `our client (${era}) → SDK 2.x server, Streamable HTTP, ${expect.version}${note}`,
    async connect() {
      peer = await startHttpPeer(SDK2_SERVER);
      return ourDriver(httpClientTransport(peer.url, options), era);
    },
    stop: async () => peer?.stop(),
    expect,
    ...extra,
  });
}

stdio("legacy", LEGACY);
stdio("modern", MODERN);
stdio("dual", MODERN);
http("legacy", LEGACY, { skip: { elicitation: STATELESS, sampling: STATELESS, cancellation: STATELESS } });
// The request metadata headers also come from the hook (see draftRequestHeaders), which
// must agree with the transport's own; the last test below runs without the hook.
http("modern", MODERN, {}, { requestHeaders: draftRequestHeaders }, " (request headers from the hook)");

test(
  "draft basic/transports/streamable-http: every POST MUST carry MCP-Protocol-Version, matching the body's protocolVersion (our HTTP client, no hook, against SDK 2.x)",
  { timeout: 15_000 },
  async () => {
    const peer = await startHttpPeer(SDK2_SERVER);
    const client = new McpClient({ name: "interop-client", version: "1.0.0" }, { session: { versions: ["2026-07-28"] } });
    try {
      await guard(client.connect(httpClientTransport(peer.url)), 10_000, "server/discover");
      assert.equal(client.protocolVersion, "2026-07-28");
      const r = await client.callTool("echo", { text: "no hook" });
      assert.deepEqual(r.content, [{ type: "text", text: "no hook" }]);
    } finally {
      client.close();
      await peer.stop();
    }
  },
);
