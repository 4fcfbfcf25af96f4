// Spec: draft basic/versioning, Protocol Version Negotiation: "The client SHOULD select a
// mutually supported version from the `supported` list and retry the request, or surface an
// error to the user if no compatible version exists." Backward Compatibility: a recognized
// modern error (UnsupportedProtocolVersionError) identifies a modern server, so the client
// retries with a supported version rather than falling back.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Pair } from "../harness/pair.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import type { ProtocolVersion } from "../../src/model/versions.js";
import { decideVersionRetry, MAX_VERSION_RETRIES } from "../../src/session/version-retry.js";

const MODERN: ProtocolVersion[] = ["2026-07-28"];
const DUAL: ProtocolVersion[] = ["2026-07-28", "2025-11-25"];

/** An UnsupportedProtocolVersionError to request `id`, listing `supported`. */
function refusal(id: number, supported: unknown, requested = "2026-07-28"): string {
  return JSON.stringify({ jsonrpc: "2.0", id, error: { code: ErrorCode.UnsupportedProtocolVersion, message: "Unsupported protocol version", data: { supported, requested } } });
}

/** A modern client whose probe is on the wire (taken off it, so the test plays the server). */
function probingClient(versions: ProtocolVersion[]): { p: Pair; probeId: number } {
  const p = new Pair({ versions }, { versions: MODERN });
  p.feed("client", { type: "open", now: 0 });
  const [probe] = p.dropQueued();
  return { p, probeId: JSON.parse(probe.text).id };
}

test("versioning: a -32022 whose supported list names the version the client sent is retried once with that version", () => {
  const { p, probeId } = probingClient(MODERN);
  p.inject("client", refusal(probeId, ["2026-07-28"]));
  const retry = p.lastSent("client") as any;
  assert.equal(retry.method, "server/discover");
  assert.notEqual(retry.id, probeId, "the retry is a new request");
  assert.equal(retry.params._meta["io.modelcontextprotocol/protocolVersion"], "2026-07-28");
  assert.equal(p.client.phase.name, "probing");
  assert.equal((p.client.phase as { retries?: number }).retries, 1, "the retry count lives in the (JSON) state");
  // The real server answers the retry: the client is then modern.
  p.run();
  assert.equal(p.client.phase.name, "modern");
  assert.equal(p.of("client", "initialized").length, 1);
});

test("versioning: a server that keeps answering -32022 makes the client give up with a clear error after the bound", () => {
  const { p, probeId } = probingClient(MODERN);
  let id = probeId;
  for (let i = 0; i < MAX_VERSION_RETRIES; i++) {
    p.inject("client", refusal(id, ["2026-07-28"]));
    id = (p.dropQueued().map((m) => JSON.parse(m.text)).find((m) => m.method === "server/discover") as { id: number }).id;
  }
  const before = p.sent("client").length;
  p.inject("client", refusal(id, ["2026-07-28"]));
  assert.equal(p.sent("client").length, before, "no further retry: the negotiation cannot loop");
  assert.equal(p.client.phase.name, "closed");
  assert.match(p.closedBy.client ?? "", /kept refusing protocol version 2026-07-28/);
  assert.match(p.closedBy.client ?? "", /-32022/);
});

test("versioning: after the bound, a dual-era client with a legacy version in common falls back to initialize", () => {
  const { p, probeId } = probingClient(DUAL);
  p.inject("client", refusal(probeId, ["2026-07-28", "2025-11-25"]));
  const retry = p.lastSent("client") as any;
  assert.equal(retry.method, "server/discover", "first the listed modern version is retried");
  p.inject("client", refusal(retry.id, ["2026-07-28", "2025-11-25"]));
  const last = p.lastSent("client") as any;
  assert.equal(last.method, "initialize");
  assert.equal(last.params.protocolVersion, "2025-11-25");
  assert.equal(p.client.phase.name, "initializing");
});

test("versioning: no compatible version in supported: the client surfaces an error instead of retrying", () => {
  const { p, probeId } = probingClient(MODERN);
  const before = p.sent("client").length;
  p.inject("client", refusal(probeId, ["1900-01-01"]));
  assert.equal(p.sent("client").length, before);
  assert.equal(p.client.phase.name, "closed");
  assert.match(p.closedBy.client ?? "", /no protocol version in common.*1900-01-01/);
});

test("versioning: a malformed supported list counts as empty (untrusted input never throws)", () => {
  for (const supported of [null, "2026-07-28", [42, { v: "2026-07-28" }], undefined]) {
    assert.equal(decideVersionRetry(MODERN, "2026-07-28", supported, 0).kind, "give-up", JSON.stringify(supported));
  }
  const { p, probeId } = probingClient(MODERN);
  p.inject("client", refusal(probeId, "2026-07-28"));
  assert.equal(p.client.phase.name, "closed");
});

test("versioning: the decision is pure and bounded for every retry count", () => {
  assert.deepEqual(decideVersionRetry(MODERN, "2026-07-28", ["2026-07-28"], 0), { kind: "retry", version: "2026-07-28" });
  for (let retries = MAX_VERSION_RETRIES; retries < MAX_VERSION_RETRIES + 5; retries++) {
    assert.equal(decideVersionRetry(MODERN, "2026-07-28", ["2026-07-28"], retries).kind, "give-up");
    assert.equal(decideVersionRetry(DUAL, "2026-07-28", ["2026-07-28", "2025-11-25"], retries).kind, "fallback");
  }
});
