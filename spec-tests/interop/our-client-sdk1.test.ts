// Interop: our McpClient against a server on the official TypeScript SDK 1.x
// (fixtures/interop/sdk1-server.mjs, legacy era) in a child process, over stdio
// (spawnStdioServer) and Streamable HTTP (httpClientTransport). The checks are in checks.ts.
import { spawnStdioServer } from "../../src/transports/stdio.js";
import { httpClientTransport } from "../../src/transports/http-client.js";
import { runPairing } from "./checks.js";
import { ourDriver, type OurEra } from "./drivers.js";
import { fixtureCommand, sourceFixture, startHttpPeer, type HttpPeer } from "./harness.js";

const SDK1_SERVER = sourceFixture("sdk1-server.mjs");
const expect = { era: "legacy" as const, version: "2025-11-25", serverName: "interop-sdk-server" };

function stdio(era: OurEra): void {
  runPairing({
    title: `our client (${era}) → SDK 1.x server, stdio, 2025-11-25`,
    connect() {
      const { command, args } = fixtureCommand(SDK1_SERVER, "--stdio");
      return ourDriver(spawnStdioServer(command, args, { stderr: "inherit" }), era);
    },
    expect,
  });
}

function http(era: OurEra): void {
  let peer: HttpPeer | undefined;
  runPairing({
    title: `our client (${era}) → SDK 1.x server, Streamable HTTP, 2025-11-25`,
    async connect() {
      peer = await startHttpPeer(SDK1_SERVER);
      return ourDriver(httpClientTransport(peer.url), era);
    },
    stop: async () => peer?.stop(),
    expect,
  });
}

stdio("legacy");
http("legacy");
// draft basic/versioning: our dual-era client probes with server/discover and falls back to initialize.
stdio("dual");
http("dual");
