// Spec: schema `Implementation` (2025-11-25 and 2026-07-28 schema.json: `name` and
// `version` required strings; `icons[].src` and `websiteUrl` are `format: uri`, an
// absolute URI with a scheme) and basic/lifecycle (2025-11-25: the client's initialize
// carries its `clientInfo`, the server "MUST respond with its own capabilities and
// information"; draft basic/index: a 2026-07-28 request's `_meta` carries clientInfo and a
// result's `_meta` serverInfo). The constructors hold `info` to the newest schema the
// object speaks, so a server or client never sends an identity its peer must refuse.
import { test } from "node:test";
import assert from "node:assert/strict";
import { McpServer, McpServerCore } from "../../src/api/server.js";
import { McpClient, McpClientCore } from "../../src/api/client.js";
import { ManualClock } from "../../src/driver/clock.js";
import { createMemoryPair } from "../../src/transports/memory.js";
import { implementationIssues } from "../../src/session/handshake.js";
import { methodSpec } from "../../src/model/methods.js";
import { isModernVersion, PROTOCOL_VERSIONS } from "../../src/model/versions.js";
import { MetaKey } from "../../src/model/meta.js";
import { stampResult, withRequestMeta } from "../../src/modern/request-meta.js";
import { escapeSegment, type Issue } from "../../src/schema/validate.js";

const LEGACY = { versions: ["2025-11-25" as const] };
const MODERN = { versions: ["2026-07-28" as const] };

/** Bad infos, each with the field the TypeError must name (schema Implementation rules). */
const BAD: [string, unknown, RegExp][] = [
  // Icon.src: `format: uri` (the SDK's simpleStreamableHttp example's `./mcp.svg`).
  ["icon src without a scheme", { name: "x", version: "1", icons: [{ src: "./mcp.svg" }] }, /\/icons\/0\/src: expected a URI with a scheme/],
  // Implementation.required: ["name", "version"].
  ["missing version", { name: "x" }, /missing required property "version"/],
  // Implementation.name: type string.
  ["name not a string", { name: 5, version: "1" }, /\/name: expected string/],
  ["not an object", null, /must be an object/],
];

for (const [what, info, field] of BAD) {
  test(`schema Implementation: McpServer and McpServerCore refuse serverInfo with ${what} (TypeError naming the field)`, () => {
    for (const session of [undefined, LEGACY, MODERN]) {
      assert.throws(() => new McpServer(info as never, { session }), (e: unknown) => e instanceof TypeError && /invalid server info/.test(e.message) && field.test(e.message));
      assert.throws(() => new McpServerCore(info as never, { session }), (e: unknown) => e instanceof TypeError && field.test(e.message));
    }
  });

  test(`schema Implementation: McpClient and McpClientCore refuse clientInfo with ${what} (TypeError naming the field)`, () => {
    for (const session of [undefined, LEGACY, MODERN]) {
      assert.throws(() => new McpClient(info as never, { session }), (e: unknown) => e instanceof TypeError && /invalid client info/.test(e.message) && field.test(e.message));
      assert.throws(() => new McpClientCore(info as never, { session }), (e: unknown) => e instanceof TypeError && field.test(e.message));
    }
  });
}

test("schema Implementation: websiteUrl is `format: uri` too; server instructions must be a string (InitializeResult.instructions)", () => {
  assert.throws(() => new McpServer({ name: "s", version: "1", websiteUrl: "example.com" }), /\/websiteUrl: expected a URI with a scheme/);
  assert.throws(() => new McpClient({ name: "c", version: "1", websiteUrl: "example.com" }), /\/websiteUrl: expected a URI with a scheme/);
  assert.throws(() => new McpServer({ name: "s", version: "1", instructions: 5 as never }), /\/instructions: must be a string/);
});

const ICONS = [{ src: "https://example.com/mcp.svg", mimeType: "image/svg+xml", sizes: ["any"] }, { src: "data:image/png;base64,iVBORw0KGgo=" }];
const SERVER = { name: "s", version: "1.0.0", title: "Server", description: "d", websiteUrl: "https://example.com", icons: ICONS };
const CLIENT = { name: "c", version: "2.0.0", title: "Client", icons: ICONS };

for (const [era, session] of [["2025-11-25 (initialize)", LEGACY], ["2026-07-28 (_meta)", MODERN]] as const) {
  test(`basic/lifecycle: valid info with icons is accepted and reaches the peer unchanged, ${era}`, async () => {
    const clock = new ManualClock();
    const server = new McpServer(SERVER, { clock, session });
    server.tool("t", {}, () => ({ content: [] }));
    const wire: any[] = [];
    const [s, c] = createMemoryPair({ onSend: (i, text) => i === 1 && wire.push(JSON.parse(text)) });
    server.connect(s);
    const client = new McpClient(CLIENT, { clock, session });
    await client.connect(c);
    await client.listTools();
    assert.deepEqual(client.serverInfo, SERVER);
    // Legacy: initialize's clientInfo; modern: every request's _meta (server/discover, tools/list).
    const carried = wire.filter((m) => m.method === "initialize" || m.params?._meta !== undefined);
    assert.equal(carried.length, session === LEGACY ? 1 : 2);
    for (const m of carried) assert.deepEqual(m.params.clientInfo ?? m.params._meta["io.modelcontextprotocol/clientInfo"], CLIENT);
    client.close();
  });
}

test("schema Implementation: the constructors' check (the type alone) finds what the messages that carry it find, in every version, for both sides", () => {
  const infos = [
    ...BAD.map(([, info]) => info).filter((info) => info !== null),
    { name: "x", version: "1", websiteUrl: "example.com", icons: [{ src: "./a.svg", sizes: [5], theme: "neon" }], title: 7 },
    { name: "x", version: "1", icons: "none" },
    { name: "x", version: "1", extra: { any: ["thing"] } },
    SERVER,
  ];
  for (const version of PROTOCOL_VERSIONS) {
    for (const role of ["client", "server"] as const) {
      for (const info of infos) {
        // The message each side sends its info in, as the handshake builds it (the rest valid).
        let at: string, issues: Issue[] | null;
        if (isModernVersion(version)) {
          const spec = methodSpec(version, "server/discover")!;
          at = `/_meta/${escapeSegment(role === "client" ? MetaKey.clientInfo : MetaKey.serverInfo)}`;
          issues =
            role === "client"
              ? spec.validateParams(withRequestMeta(undefined, version, {}, info as never, undefined))
              : spec.validateResult!(stampResult("server/discover", { supportedVersions: [version], capabilities: {} }, info as never, { ttlMs: 0, scope: "private" }));
        } else {
          const spec = methodSpec(version, "initialize")!;
          at = role === "client" ? "/clientInfo" : "/serverInfo";
          const base = { protocolVersion: version, capabilities: {} };
          issues = role === "client" ? spec.validateParams({ ...base, clientInfo: info as never }) : spec.validateResult!({ ...base, serverInfo: info as never });
        }
        const inMessage = issues && issues.map((i) => ({ path: i.path.slice(at.length), reason: i.reason }));
        assert.ok(issues === null || issues.every((i) => i.path.startsWith(at)), `${version} ${role}: only the info is wrong`);
        assert.deepEqual(implementationIssues(role, info, [version]), inMessage, `${version} ${role} ${JSON.stringify(info)}`);
      }
    }
  }
});
