/**
 * Fuzz targets for the JSON-RPC codec and the validators.
 *
 * Spec: `basic/index` ("Messages": a request has a string or integer id, never null; a
 * response has exactly one of result and error), JSON-RPC 2.0 (`-32700` for text that is
 * not JSON, `-32600` for a message that is not a valid request), `basic/transports` (UTF-8).
 * The schema pages for the validators.
 *
 * Invariants: `decode` never throws; an invalid input's reply is itself a valid JSON-RPC
 * error response with code -32700 or -32600 and a reason that never echoes the input; a
 * valid message re-encodes (with no raw line break) to text that decodes to an equal
 * message of the same kind; bytes and text agree; validators never throw and stay within
 * their issue cap.
 */
import assert from "node:assert/strict";
import { decode, encode, type Decoded } from "../../src/jsonrpc/codec.js";
import { ErrorCode } from "../../src/jsonrpc/errors.js";
import { MAX_ISSUES, typeNames, validate } from "../../src/schema/index.js";
import { SCHEMA_VERSIONS } from "../../src/model/versions.js";
import { pick } from "../harness/random.js";
import { exampleValues, int, messageText, mutateValue, randomBytes, randomJson, type Rng } from "./generate.js";
import type { FuzzTarget } from "./target.js";

const utf8 = new TextEncoder();

/** Checks one decoded result; `allowBatch` as decoded. */
export function checkDecoded(d: Decoded, allowBatch: boolean, where: string): void {
  if (d.kind === "invalid") {
    assert.ok(d.reply.error.code === ErrorCode.ParseError || d.reply.error.code === ErrorCode.InvalidRequest, `${where}: reply code ${d.reply.error.code}`);
    const again = decode(encode(d.reply));
    assert.equal(again.kind, "error", `${where}: the error reply is not a valid error response`);
    assert.ok(d.reply.id === null || typeof d.reply.id === "string" || Number.isInteger(d.reply.id), `${where}: reply id`);
    return;
  }
  if (d.kind === "batch") {
    assert.ok(allowBatch, `${where}: a batch decoded without allowBatch`);
    for (const item of d.items) {
      assert.notEqual(item.kind, "batch", `${where}: a nested batch`);
      checkDecoded(item, false, where);
    }
    return;
  }
  const text = encode(d.message);
  assert.ok(!text.includes("\n") && !text.includes("\r"), `${where}: encoded text has a raw line break`);
  const again = decode(text);
  assert.equal(again.kind, d.kind, `${where}: re-encoded message decodes as ${again.kind}`);
  assert.deepEqual(signlessZeros((again as { message: unknown }).message), signlessZeros(d.message), `${where}: the round trip changed the message`);
  if (d.kind === "request") assert.ok(d.message.id !== null);
}

/**
 * `value` with every -0 made 0, for comparing messages as JSON numbers: the platform's
 * `JSON.stringify`, which the encoder is, writes -0 as 0 (found by a fuzz run, seed
 * 990003: an error `code` of -0), and no MCP field gives the sign of a zero a meaning.
 * Nothing else is made equal.
 */
function signlessZeros(value: unknown): unknown {
  if (Object.is(value, -0)) return 0;
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map(signlessZeros);
  const copy: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) Object.defineProperty(copy, k, { value: signlessZeros(v), enumerable: true, writable: true, configurable: true });
  return copy;
}

/** Text in, with or without batches. */
export const codecText: FuzzTarget<{ text: string; allowBatch: boolean; maxDepth?: number; maxBytes?: number }> = {
  name: "codec-text",
  spec: "basic/index + JSON-RPC 2.0: every text decodes to a message or the exact error reply",
  generate(r: Rng) {
    let text = messageText(r);
    if (r() < 0.1) text = "[" + text + "," + messageText(r) + "]";
    const input: { text: string; allowBatch: boolean; maxDepth?: number; maxBytes?: number } = { text, allowBatch: r() < 0.3 };
    if (r() < 0.2) input.maxDepth = int(r, 6);
    if (r() < 0.2) input.maxBytes = int(r, 400);
    return input;
  },
  check({ text, allowBatch, maxDepth, maxBytes }) {
    const d = decode(text, { allowBatch, maxDepth, maxBytes });
    checkDecoded(d, allowBatch, `decode(${JSON.stringify(text).slice(0, 200)})`);
    if (d.kind === "invalid" && d.reply.error.code === ErrorCode.InvalidRequest && text.length > 16) {
      // The reason names the rule, never the peer's text (no reflection of input).
      assert.ok(!d.reply.error.message.includes(text), "the reply echoes the input");
    }
  },
};

/** Bytes in: agree with the text path whenever the bytes are UTF-8 without a BOM. */
export const codecBytes: FuzzTarget<{ bytes: number[] }> = {
  name: "codec-bytes",
  spec: "basic/transports: messages are UTF-8; invalid bytes are -32700",
  generate(r: Rng) {
    if (r() < 0.5) return { bytes: randomBytes(r, int(r, 60)) };
    const bytes = Array.from(utf8.encode(messageText(r)));
    for (let i = int(r, 3); i > 0 && bytes.length > 0; i--) bytes[int(r, bytes.length)] = randomBytes(r, 1)[0];
    return { bytes };
  },
  check({ bytes }) {
    const u8 = Uint8Array.from(bytes);
    const d = decode(u8);
    checkDecoded(d, false, `decode(bytes ${JSON.stringify(bytes).slice(0, 200)})`);
    let text: string | undefined;
    try {
      text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(u8);
    } catch {
      assert.equal(d.kind, "invalid", "invalid UTF-8 was accepted");
      assert.equal((d as { reply: { error: { code: number } } }).reply.error.code, ErrorCode.ParseError);
      return;
    }
    if (text.charCodeAt(0) !== 0xfeff) assert.deepEqual(d, decode(text), "bytes and text decode differently");
  },
};

/** Validators: any value, any type name, any schema version. */
export const validators: FuzzTarget<{ version: string; type: string; value: unknown }> = {
  name: "validators",
  spec: "schema: a validator reports issues as values, never throws, caps its issues",
  generate(r: Rng) {
    const version = pick(r, SCHEMA_VERSIONS);
    const ex = exampleValues();
    if (r() < 0.6) {
      const e = pick(r, ex);
      return { version, type: r() < 0.8 ? e.type : pick(r, typeNames(version)), value: r() < 0.2 ? e.value : mutateValue(r, e.value) };
    }
    return { version, type: pick(r, typeNames(version)), value: randomJson(r, 5) };
  },
  check({ version, type, value }) {
    const a = validate(version as never, type, value);
    const b = validate(version as never, type, JSON.parse(JSON.stringify(value ?? null)));
    if (value !== undefined) assert.deepEqual(a.ok, b.ok, "validation depends on more than the JSON value");
    if (!a.ok) {
      assert.ok(a.issues.length >= 1 && a.issues.length <= MAX_ISSUES, `issues ${a.issues.length}`);
      for (const i of a.issues) assert.ok(typeof i.path === "string" && typeof i.reason === "string");
    }
  },
};
