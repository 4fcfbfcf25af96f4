/**
 * Codec rows: what the kernel adds on top of `JSON.parse` + `JSON.stringify` for the
 * messages a tool-calling session is made of.
 *
 * The mix (2026-07-28, one "call" = five messages, 64 calls, every message distinct):
 * a `tools/call` request with `_meta` and arguments, two `notifications/progress`, a
 * `notifications/message` with structured data, and the `CallToolResult` with text
 * content of 80 B to 2 KiB. One op = one message, in that order, cycling.
 *
 * - `codec/floor JSON.parse+stringify`: the floor, the same bytes through
 *   `JSON.parse` then `JSON.stringify`.
 * - `codec/decode+encode`: {@link decode} then {@link encode}, no schema (informative).
 * - `codec/decode+validate+encode`: the receive-and-forward path: decode, validate
 *   params through `methodSpec(...).validateParams` (results through the request's
 *   method's `validateResult`), encode. Target: at most 1.5× the floor's time per op.
 */
import { decode, encode, methodSpec } from "../src/index.js";
import type { Decoded, JsonRpcMessage, MethodSpec, ProtocolVersion } from "../src/index.js";
import { defineBench } from "./harness.js";

const VERSION: ProtocolVersion = "2026-07-28";
const FLOOR = "codec/floor JSON.parse+stringify";
const CALLS = 64;

const TOOLS = ["get_weather", "search_files", "run_query", "create_issue"];
const WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima"];

/** Deterministic filler text of about `size` characters (no randomness, by rule). */
function text(seed: number, size: number): string {
  let s = "";
  for (let i = 0; s.length < size; i++) s += (i === 0 ? "" : i % 9 === 0 ? ".\n" : " ") + WORDS[(seed * 7 + i * 5) % WORDS.length];
  return s;
}

function callArguments(i: number): Record<string, unknown> {
  switch (i % 4) {
    case 0:
      return { location: `${WORDS[i % 12]} city`, units: i % 2 === 0 ? "metric" : "imperial" };
    case 1:
      return { query: text(i, 40), path: `/srv/${WORDS[i % 12]}/src`, limit: 50, includeHidden: false };
    case 2:
      return { sql: `SELECT id, name FROM t${i} WHERE score > ${i * 3} ORDER BY name`, params: [i, `${WORDS[i % 12]}`, null], timeoutMs: 5000 };
    default:
      return { title: text(i, 60), labels: ["bug", WORDS[i % 12]], body: text(i + 1, 300), assignee: { login: WORDS[(i + 3) % 12], id: 1000 + i } };
  }
}

/** The mix as wire text, plus for each result the method its request named. */
function mix(): { lines: string[]; answers: (string | null)[] } {
  const lines: string[] = [];
  const answers: (string | null)[] = [];
  const push = (message: object, answer: string | null) => {
    lines.push(JSON.stringify(message));
    answers.push(answer);
  };
  for (let i = 0; i < CALLS; i++) {
    const id = i % 3 === 0 ? `req-${i}` : i;
    push({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: {
        _meta: {
          "io.modelcontextprotocol/protocolVersion": VERSION,
          "io.modelcontextprotocol/clientInfo": { name: "BenchClient", version: "1.4.2" },
          "io.modelcontextprotocol/clientCapabilities": i % 2 === 0 ? {} : { elicitation: {} },
          progressToken: `tok-${i}`,
        },
        name: TOOLS[i % TOOLS.length],
        arguments: callArguments(i),
      },
    }, null);
    for (const p of [25, 75]) {
      push({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: `tok-${i}`, progress: p + i, total: 100 + i, message: `step ${p}% of ${TOOLS[i % 4]}` } }, null);
    }
    push({
      jsonrpc: "2.0",
      method: "notifications/message",
      params: { level: i % 5 === 0 ? "warning" : "info", logger: "tools", data: { tool: TOOLS[i % 4], elapsedMs: 12 + i, attempt: 1 + (i % 3), note: text(i, 50) } },
    }, null);
    push({
      jsonrpc: "2.0",
      id,
      result: { resultType: "complete", content: [{ type: "text", text: text(i, 80 + ((i * 97) % 1968)) }], isError: i % 16 === 15 },
    }, "tools/call");
  }
  return { lines, answers };
}

/** Inputs shared by the rows: the text, and each result's method spec resolved once (a session's pending-request table). */
interface State {
  lines: string[];
  specs: (MethodSpec | null)[];
}

function setup(): State {
  const { lines, answers } = mix();
  const specs = answers.map((m) => (m === null ? null : methodSpec(VERSION, m) ?? null));
  // Refuse to measure the error path: every message of the mix must be valid.
  for (let i = 0; i < lines.length; i++) {
    const problem = check(decode(lines[i]), specs[i]);
    if (problem !== null) throw new Error(`mix message ${i} is not valid: ${problem}`);
  }
  return { lines, specs };
}

/** Validation of one decoded message; null when valid, else what is wrong. */
function check(d: Decoded, answered: MethodSpec | null): string | null {
  switch (d.kind) {
    case "request":
    case "notification": {
      const spec = methodSpec(VERSION, d.message.method);
      if (spec === undefined) return `unknown method ${d.message.method}`;
      const issues = spec.validateParams(d.message.params);
      return issues === null ? null : `${issues[0].path} ${issues[0].reason}`;
    }
    case "result": {
      const issues = answered?.validateResult?.(d.message.result) ?? null;
      return issues === null ? null : `${issues[0].path} ${issues[0].reason}`;
    }
    case "invalid":
      return d.reason;
    default:
      return `unexpected ${d.kind}`;
  }
}

defineBench<State>({
  name: FLOOR,
  setup,
  run(n, { lines }) {
    let bytes = 0;
    for (let i = 0; i < n; i++) bytes += JSON.stringify(JSON.parse(lines[i % lines.length])).length;
    return bytes;
  },
});

defineBench<State>({
  name: "codec/decode+encode",
  baseline: FLOOR,
  setup,
  run(n, { lines }) {
    let bytes = 0;
    for (let i = 0; i < n; i++) {
      const d = decode(lines[i % lines.length]);
      if (d.kind !== "invalid" && d.kind !== "batch") bytes += encode(d.message as JsonRpcMessage).length;
    }
    return bytes;
  },
});

defineBench<State>({
  name: "codec/decode+validate+encode",
  baseline: FLOOR,
  target: 1.5,
  setup,
  run(n, { lines, specs }) {
    let bytes = 0;
    for (let i = 0; i < n; i++) {
      const k = i % lines.length;
      const d = decode(lines[k]);
      if (d.kind === "request" || d.kind === "notification") {
        if (methodSpec(VERSION, d.message.method)!.validateParams(d.message.params) !== null) throw new Error("invalid params");
        bytes += encode(d.message).length;
      } else if (d.kind === "result") {
        if (specs[k]!.validateResult!(d.message.result) !== null) throw new Error("invalid result");
        bytes += encode(d.message).length;
      }
    }
    return bytes;
  },
});
