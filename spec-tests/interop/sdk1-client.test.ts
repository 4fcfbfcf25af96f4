// Interop: the official TypeScript SDK 1.x client (@modelcontextprotocol/sdk, legacy era
// only) against our demo server (src/demo/server.ts on McpServer) in a child process,
// over stdio and over Streamable HTTP. The checks are in checks.ts.
import { runPairing } from "./checks.js";
import { sdk1Driver } from "./drivers.js";
import { compiledFixture, fixtureCommand, startHttpPeer, type HttpPeer } from "./harness.js";

const OUR_SERVER = compiledFixture("our-server.js");
const expect = { era: "legacy" as const, version: "2025-11-25", serverName: "mcp-kernel-demo" };

runPairing({
  title: "SDK 1.x client → our server, stdio, 2025-11-25",
  connect: () => sdk1Driver({ stdio: fixtureCommand(OUR_SERVER, "--stdio") }),
  expect,
});

let peer: HttpPeer | undefined;
runPairing({
  title: "SDK 1.x client → our server, Streamable HTTP, 2025-11-25",
  async connect() {
    peer = await startHttpPeer(OUR_SERVER);
    return sdk1Driver({ http: peer.url });
  },
  stop: async () => peer?.stop(),
  expect,
});
