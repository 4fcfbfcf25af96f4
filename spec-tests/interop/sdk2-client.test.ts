// Interop: the official TypeScript SDK 2.x client (@modelcontextprotocol/client) against
// our demo server (src/demo/server.ts on McpServer, dual-era) in a child process, over
// stdio and over Streamable HTTP, in each era the client speaks: the plain 2025 handshake,
// 2026-07-28 pinned, and `auto` (probe with server/discover, fall back to initialize).
import { runPairing, type Pairing } from "./checks.js";
import { sdk2Driver, type Sdk2Mode } from "./drivers.js";
import { compiledFixture, fixtureCommand, startHttpPeer, type HttpPeer } from "./harness.js";

const OUR_SERVER = compiledFixture("our-server.js");
const serverName = "mcp-kernel-demo";
const LEGACY = { era: "legacy" as const, version: "2025-11-25", serverName };
const MODERN = { era: "modern" as const, version: "2026-07-28", serverName };

function stdio(mode: Sdk2Mode, expect: Pairing["expect"], extra: Partial<Pairing> = {}): void {
  runPairing({
    title: `SDK 2.x client (${mode}) → our server, stdio, ${expect.version}`,
    connect: () => sdk2Driver({ stdio: fixtureCommand(OUR_SERVER, "--stdio") }, mode),
    expect,
    ...extra,
  });
}

function http(mode: Sdk2Mode, expect: Pairing["expect"], extra: Partial<Pairing> = {}): void {
  let peer: HttpPeer | undefined;
  runPairing({
    title: `SDK 2.x client (${mode}) → our server, Streamable HTTP, ${expect.version}`,
    async connect() {
      peer = await startHttpPeer(OUR_SERVER);
      return sdk2Driver({ http: peer.url }, mode);
    },
    stop: async () => peer?.stop(),
    expect,
    ...extra,
  });
}

stdio("legacy", LEGACY);
stdio("modern", MODERN);
stdio("auto", MODERN);
http("legacy", LEGACY);
http("modern", MODERN);
// draft basic/versioning: our HTTP server is dual-era, so the probe gets a modern answer and the client stays modern.
http("auto", MODERN);
