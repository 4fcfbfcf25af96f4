/**
 * Growth with message size (issue 10, "Growth"): codec decode + validate + encode of one
 * `tools/call` request whose argument is a string of 100 B, 1 KB, 10 KB, 100 KB and 1 MB,
 * each against `JSON.parse` + `JSON.stringify` of the same text. Cost must stay O(n) in
 * bytes: the ratio to the raw floor at each size should not grow with the size.
 * (Per-byte ns = 1e9 / (opsPerSec × size); not yet derived as its own field.)
 */
import { decode, encode, methodSpec } from "../src/index.js";
import { defineBench } from "./harness.js";

const SIZES: readonly [string, number][] = [["100 B", 100], ["1 KB", 1024], ["10 KB", 10 * 1024], ["100 KB", 100 * 1024], ["1 MB", 1024 * 1024]];
const VERSION = "2026-07-28" as const;

/** A tools/call request line of about `size` bytes (deterministic filler). */
function line(size: number): string {
  const _meta = {
    "io.modelcontextprotocol/protocolVersion": VERSION,
    "io.modelcontextprotocol/clientInfo": { name: "BenchClient", version: "1.0.0" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  const message = (text: string) => JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { _meta, name: "echo", arguments: { text } } });
  const shell = message("").length;
  return message("abcdefghij".repeat(Math.ceil(size / 10)).slice(0, Math.max(0, size - shell)));
}

for (const [label, size] of SIZES) {
  const floor = `growth/size ${label}: floor JSON.parse+stringify`;
  defineBench({
    name: floor,
    setup: () => line(size),
    run(n, text) {
      let bytes = 0;
      for (let i = 0; i < n; i++) bytes += JSON.stringify(JSON.parse(text)).length;
      return bytes;
    },
  });
  defineBench({
    name: `growth/size ${label}: decode+validate+encode`,
    baseline: floor,
    target: 3,
    setup: () => line(size),
    run(n, text) {
      const spec = methodSpec(VERSION, "tools/call")!;
      let bytes = 0;
      for (let i = 0; i < n; i++) {
        const d = decode(text);
        if (d.kind !== "request" || spec.validateParams(d.message.params) !== null) throw new Error("invalid request");
        bytes += encode(d.message).length;
      }
      return bytes;
    },
  });
}
