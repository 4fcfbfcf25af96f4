/**
 * `mcp-kernel validate`: checks MCP messages against one protocol version.
 *
 * Spec: `basic/index` ("Messages": requests, notifications, results, errors; batches only
 * in 2025-03-26) and the `schema.json` of the chosen version, through the kernel's own
 * codec ({@link decode}) and method table ({@link methodSpec}).
 *
 * Theory of operation. The input is either one JSON document (which may be
 * pretty-printed over many lines, like the spec's examples) or JSON Lines. The first
 * non-blank line decides: if it is a JSON value on its own, the input is JSON Lines and
 * each line is checked as it arrives; if not, the rest is buffered and read as one
 * document, and only if the whole is not JSON either is it read line by line after all
 * (JSON Lines whose first line is broken).
 *
 * Each message yields exactly one line that starts with `ok ` or `error `, so the n-th
 * such line describes the n-th non-blank input line (a batch is one line too):
 *
 *     ok <kind> <method>        request / notification / result / error
 *     error <pointer> <reason>  the first issue found
 *       <pointer> <reason>      further issues of the same message, indented two spaces
 *
 * A pointer is an RFC 6901 JSON pointer into that input line's value; the whole value
 * (RFC 6901's empty pointer: not JSON, not a JSON-RPC message) prints as `-`, which no
 * real pointer can be, since they all begin with `/`.
 *
 * A result or error response names its method, and a result is checked against that
 * method's result schema, when its request appeared earlier in the same input (a
 * recorded session). Otherwise a result cannot be classified, since a result does not
 * say what it answers, and prints as plain `ok result`. An id that two pending requests
 * share (both sides of a session count from 1) is ambiguous and treated as unknown.
 *
 * With `--type T` every value is checked bare against schema type `T` instead.
 *
 * A transcript (JSON Lines whose first line is an `mcp-kernel/stdio-2` (or `-1`) or `mcp-kernel/1`
 * header) is checked as the session it recorded: each message it holds, in order (the
 * `line` of each stdio event; a step's received `data`, then the messages it sent; a
 * `renewed` step's InitializeResult), one `ok` / `error` line each; the pointer is into
 * that message.
 */
import { allowsBatches, decode, DEFAULT_LIMITS, isProtocolVersion, LEGACY_VERSIONS, METHODS, methodSpec, PROTOCOL_VERSIONS, requestResultIssues, schemaVersionOf, validatorFor } from "../index.js";
import type { Decoded, Issue, ProtocolVersion, RequestId, Validator } from "../index.js";
import { Exit, isBlank, joinLines, openInput, OutputFailed, readLines, writeOut, writeResult } from "./io.js";
import type { CliIO, Verb } from "./io.js";
import { isStdioTranscript } from "./stdio-transcript.js";
import { parseArgs } from "node:util";

const USAGE = `usage: mcp-kernel validate [--version V] [--type T] [--max-bytes N] [FILE|-]

Checks MCP messages against the schema of protocol version V (default ${PROTOCOL_VERSIONS[0]};
known: ${PROTOCOL_VERSIONS.join(", ")}); without --version, a recorded session's own
version is followed: an initialize selects the version it asks for (the latest 2025 one
when that has no initialize, as an unknown version) and its result the one the server
chose, a modern request the one its _meta names. Reads FILE, or standard input for - or no FILE:
one JSON message (it may span lines) or JSON Lines (one per line, blank lines skipped),
or a transcript written by \`mcp-kernel record\` or recordingSession, whose messages are
checked in order.

Without --type, each line is decoded as JSON-RPC (batches only for 2025-03-26) and a
request's or notification's params are checked against its method. A result is checked,
and a result or error names its method, when its request came earlier in the input.
With --type T (a schema type such as CallToolResult), each value is checked bare as T.
A message over N bytes (--max-bytes, default ${DEFAULT_LIMITS.maxBytes}: the kernel's own limit) is an error.

Prints one line per message:
  ok <kind> <method>        kind: request, notification, result, error
  ok <kind> <T>             with --type; kind: result, params or value
  error <pointer> <reason>  pointer: RFC 6901, into that line; - is the whole line
    <pointer> <reason>      more issues of the same message, indented

Exit status: 0 every message is valid, 1 some are not (or the input is empty),
2 bad arguments, unreadable input or unwritable output, 141 the reader of the output
went away before the end (as in \`| head\`: checking stopped there).
`;

/** The `validate` verb. */
export const validateVerb: Verb = {
  summary: "check JSON or JSON Lines messages against a protocol version",
  usage: USAGE,
  run: runValidate,
};

/** What checking one value found. `issues` paths are already absolute within the line. */
type Verdict = { ok: true; what: string } | { ok: false; issues: Issue[] };

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });
const lenientUtf8 = new TextDecoder("utf-8");

/** Checks lines one at a time, remembering requests so that later results can be checked. */
class Checker {
  /** Lines checked, and how many of them were invalid. */
  messages = 0;
  failures = 0;
  private allowBatch: boolean;
  /** Requests seen and not yet answered: id → method, or null when two share the id. */
  private readonly pending = new Map<RequestId, string | null>();
  /** The pending requests that asked for a task (`params.task`): only their results may be a `CreateTaskResult`. */
  private readonly augmented = new Set<RequestId>();

  constructor(
    private version: ProtocolVersion,
    /** `--type`: the validator, its name, and the kind word printed for it. */
    private readonly bare: { validator: Validator; name: string; kind: string } | null,
    /** No `--version` given: a recorded session's own version is followed (see {@link Checker.follow}). */
    private readonly following = false,
    /** `--max-bytes`: the codec's size limit for one message (default the kernel's own, 4 MiB). */
    private readonly maxBytes = DEFAULT_LIMITS.maxBytes,
  ) {
    this.allowBatch = allowsBatches(version);
  }

  /**
   * Without `--version`, the input's own version decides, as it would for its peers: an
   * `initialize` request selects the version it asks for, its result the one the server
   * chose; a modern request names its version in `_meta`. Messages after that are checked
   * under it (a recorded legacy session is not checked against 2026-07-28).
   */
  private follow(message: { method?: unknown; params?: unknown; result?: unknown }): void {
    if (!this.following) return;
    let named: unknown;
    if (message.method === "initialize") {
      named = (message.params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
      // A version without initialize (one the kernel does not know, or 2026-07-28) still
      // opens a legacy session: the server answers with one it supports (2025-11-25
      // basic/lifecycle), which its result names. Until then the latest legacy version is
      // the best guess; checked under 2026-07-28 the request would be an unknown method,
      // never remembered, and its result never matched to initialize.
      if (typeof named !== "string" || !isProtocolVersion(named) || methodSpec(named, "initialize") === undefined) named = LEGACY_VERSIONS[0];
    } else if (message.method === undefined) named = (message.result as { protocolVersion?: unknown } | undefined)?.protocolVersion;
    else named = ((message.params as { _meta?: Record<string, unknown> } | undefined)?._meta ?? {})["io.modelcontextprotocol/protocolVersion"];
    if (typeof named !== "string" || !isProtocolVersion(named) || named === this.version) return;
    this.version = named;
    this.allowBatch = allowsBatches(named);
  }

  /** Checks one non-blank line (or whole document) and returns its output lines. */
  line(bytes: Uint8Array): string {
    return this.report(this.bare === null ? this.message(decode(bytes, { allowBatch: this.allowBatch, maxBytes: this.maxBytes }), "") : this.value(bytes));
  }

  /** A transcript's `renewed` input: the `InitializeResult` of the client's new session, checked bare under the session's version. */
  renewal(result: unknown): string {
    const issues = validatorFor(this.version, "InitializeResult")?.(result) ?? null;
    return this.report(issues === null ? { ok: true, what: "result initialize (renewed session)" } : { ok: false, issues });
  }

  /** Counts a verdict and renders its output lines. */
  private report(verdict: Verdict): string {
    this.messages++;
    if (verdict.ok) return `ok ${verdict.what}\n`;
    this.failures++;
    const issues = verdict.issues;
    let out = `error ${pointer(issues[0].path)} ${oneLine(issues[0].reason)}\n`;
    for (let i = 1; i < issues.length; i++) out += `  ${pointer(issues[i].path)} ${oneLine(issues[i].reason)}\n`;
    return out;
  }

  /** `--type`: parses the line and checks the bare value. */
  private value(bytes: Uint8Array): Verdict {
    const bare = this.bare!;
    // The codec's limit, as for a message (--help: a message over N bytes is an error).
    if (bytes.byteLength > this.maxBytes) return fail("", `message exceeds maxBytes (${this.maxBytes})`);
    let value: unknown;
    try {
      value = JSON.parse(strictUtf8.decode(bytes));
    } catch (e) {
      return fail("", e instanceof SyntaxError ? `invalid JSON: ${e.message}` : "invalid UTF-8");
    }
    const issues = bare.validator(value);
    return issues === null ? { ok: true, what: `${bare.kind} ${bare.name}` } : { ok: false, issues };
  }

  /** Checks one decoded message; `at` is its pointer within the line (`/3` inside a batch). */
  private message(d: Decoded, at: string): Verdict {
    switch (d.kind) {
      case "invalid":
        return fail(at, d.reason);
      case "request":
      case "notification": {
        this.follow(d.message);
        const { method, params } = d.message;
        const spec = methodSpec(this.version, method);
        if (spec === undefined) return fail(`${at}/method`, `unknown method ${method} in ${this.version}`);
        if (spec.kind !== d.kind) {
          return fail(`${at}/id`, spec.kind === "request" ? `${method} is a request: it needs an id` : `${method} is a notification: it must not have an id`);
        }
        if (d.kind === "request") this.remember(d.message.id, method, typeof params === "object" && params !== null && Object.hasOwn(params, "task"));
        const issues = spec.validateParams(params);
        return issues === null ? { ok: true, what: `${d.kind} ${method}` } : { ok: false, issues: under(`${at}/params`, issues) };
      }
      case "result": {
        const method = this.answered(d.message.id);
        if (method === "initialize") this.follow(d.message);
        if (method === null) return { ok: true, what: "result" };
        // Only requests are remembered, and every request has a result validator. A 2025-11-25
        // request that asked for no task is answered with its own result, never a CreateTaskResult.
        const issues = requestResultIssues(this.version, methodSpec(this.version, method)!, d.message.result, this.augmented.delete(d.message.id));
        return issues === null ? { ok: true, what: `result ${method}` } : { ok: false, issues: under(`${at}/result`, issues) };
      }
      case "error": {
        const id = d.message.id;
        const method = id === null ? null : this.answered(id);
        return { ok: true, what: method === null ? "error" : `error ${method}` };
      }
      case "batch": {
        const issues: Issue[] = [];
        const parts: string[] = [];
        for (let i = 0; i < d.items.length; i++) {
          const v = this.message(d.items[i], `${at}/${i}`);
          if (v.ok) parts.push(v.what);
          else issues.push(...v.issues);
        }
        return issues.length === 0 ? { ok: true, what: `batch ${parts.length}: ${parts.join(", ")}` } : { ok: false, issues };
      }
    }
  }

  /** Records a request so its response can be matched; a reused id becomes ambiguous. */
  private remember(id: RequestId, method: string, task: boolean): void {
    this.pending.set(id, this.pending.has(id) ? null : method);
    if (task) this.augmented.add(id);
  }

  /** The method a response with `id` answers (forgetting the request), or null when unknown. */
  private answered(id: RequestId): string | null {
    const method = this.pending.get(id);
    if (method === undefined) return null;
    this.pending.delete(id);
    return method;
  }
}

/** A verdict with one issue. */
function fail(path: string, reason: string): Verdict {
  return { ok: false, issues: [{ path, reason }] };
}

/** Issues found inside a member, re-rooted at the member's pointer. */
function under(prefix: string, issues: Issue[]): Issue[] {
  return issues.map((issue) => ({ path: prefix + issue.path, reason: issue.reason }));
}

/** How a pointer prints: the empty (root) pointer as `-`. */
function pointer(path: string): string {
  return path === "" ? "-" : path;
}

/** A reason on one line, whatever a validator or parser put in it. */
function oneLine(reason: string): string {
  return reason.replace(/\s*[\r\n]+\s*/g, " ");
}

/** True when the bytes are one complete JSON value (used only to tell a document from JSON Lines). */
function isJson(bytes: Uint8Array): boolean {
  try {
    JSON.parse(lenientUtf8.decode(bytes));
    return true;
  } catch {
    return false;
  }
}

/** The kind word printed for `--type T`: whether T is some method's result or params type. */
function kindOfType(version: ProtocolVersion, typeName: string): string {
  let kind = "value";
  for (const spec of Object.values(METHODS[schemaVersionOf(version)])) {
    if (spec.resultType === typeName) return "result";
    if (spec.paramsType === typeName) kind = "params";
  }
  return kind;
}

/** The transcript formats whose messages are checked: `record`'s (stdio) and the library's (kernel steps). */
type Transcript = "stdio" | "mcp-kernel/1";

/** The format a transcript's header line names, or undefined for any other line. */
function transcriptOf(line: Uint8Array): Transcript | undefined {
  const format = (JSON.parse(lenientUtf8.decode(line)) as { transcript?: unknown } | null)?.transcript;
  return isStdioTranscript(format) ? "stdio" : format === "mcp-kernel/1" ? format : undefined;
}

/**
 * The messages one transcript line holds, in order: a stdio event's `line` (or its `bytes`,
 * not UTF-8), a step's received `data` (or `value`) then the messages it sent. A line that is not JSON
 * is itself checked (and so reported); events without a message (an end, a draw, an exit)
 * hold none.
 */
function transcriptMessages(format: Transcript, line: Uint8Array): (Uint8Array | { renewed: unknown })[] {
  let event: Record<string, unknown>;
  try {
    event = JSON.parse(lenientUtf8.decode(line)) as Record<string, unknown>;
  } catch {
    return [line];
  }
  if (event === null || typeof event !== "object") return [line];
  const text = (s: unknown) => new TextEncoder().encode(typeof s === "string" ? s : JSON.stringify(s));
  if (format === "stdio") {
    if (typeof event.line === "string") return [text(event.line)];
    return typeof event.bytes === "string" ? [new Uint8Array(Buffer.from(event.bytes, "base64"))] : [];
  }
  // A received message is raw text in `data`, or (SessionInput allows it) an already-parsed `value`; the session reads `data` first.
  const input = event.input as { type?: unknown; data?: unknown; value?: unknown; result?: unknown } | undefined;
  // A renewed client session brings the server's new InitializeResult as an input, not a message.
  if (input?.type === "renewed") return [{ renewed: input.result }];
  const message = input?.type !== "receive" ? undefined : typeof input.data === "string" ? input.data : input.value;
  const received = message === undefined ? [] : [text(message)];
  const outputs = Array.isArray(event.outputs) ? (event.outputs as { type?: unknown; message?: unknown }[]) : [];
  return [...received, ...outputs.filter((o) => o?.type === "send" && o.message !== undefined).map((o) => text(o.message))];
}

/** Prints a usage error and the verb's usage; returns the usage exit code. */
async function usageError(io: CliIO, message: string): Promise<number> {
  await writeOut(io.stderr, `mcp-kernel validate: ${message}\n\n${USAGE}`);
  return Exit.Usage;
}

async function runValidate(args: string[], io: CliIO): Promise<number> {
  let values: { version?: string; type?: string; "max-bytes"?: string; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args,
      options: { version: { type: "string" }, type: { type: "string" }, "max-bytes": { type: "string" }, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    }));
  } catch (e) {
    return usageError(io, (e as Error).message);
  }
  if (values.help) {
    await writeResult(io.stdout, USAGE);
    return Exit.Ok;
  }
  if (positionals.length > 1) return usageError(io, `expected at most one FILE, got ${positionals.length}`);
  const version = values.version ?? PROTOCOL_VERSIONS[0];
  if (!isProtocolVersion(version)) return usageError(io, `unknown protocol version ${version}`);
  let bare: { validator: Validator; name: string; kind: string } | null = null;
  if (values.type !== undefined) {
    const validator = validatorFor(version, values.type);
    if (validator === undefined) return usageError(io, `unknown type ${values.type} in ${version}`);
    bare = { validator, name: values.type, kind: kindOfType(version, values.type) };
  }
  // The kernel refuses a message over 4 MiB by default (its codec's limit, which a server
  // may raise): a log of such a server's messages is checked at its own limit.
  const rawMax = values["max-bytes"];
  const maxBytes = rawMax === undefined ? DEFAULT_LIMITS.maxBytes : /^[1-9]\d*$/.test(rawMax) ? Number(rawMax) : NaN;
  if (!Number.isSafeInteger(maxBytes)) return usageError(io, `--max-bytes needs a positive whole number of bytes, got ${rawMax}`);
  const file = positionals[0] ?? "-";
  const checker = new Checker(version, bare, values.version === undefined && bare === null, maxBytes);

  // "first": nothing seen yet; "lines": JSON Lines; "document": buffering one document; a
  // transcript's format: its messages, taken out of each line.
  let mode: "first" | "lines" | "document" | Transcript = "first";
  const document: Uint8Array[] = [];
  try {
    for await (const batch of readLines(openInput(file, io))) {
      let out = "";
      for (const line of batch) {
        if (mode === "document") {
          document.push(line);
          continue;
        }
        if (isBlank(line)) continue;
        if (mode === "first") {
          if (!isJson(line)) {
            mode = "document";
            document.push(line);
            continue;
          }
          mode = transcriptOf(line) ?? "lines";
          if (mode !== "lines") continue;
        }
        if (mode === "lines") out += checker.line(line);
        else for (const m of transcriptMessages(mode, line)) out += m instanceof Uint8Array ? checker.line(m) : checker.renewal(m.renewed);
      }
      await writeResult(io.stdout, out);
    }
  } catch (e) {
    // Our output failed, not our input: main tells which exit code that is.
    if (e instanceof OutputFailed) throw e;
    await writeOut(io.stderr, `mcp-kernel validate: cannot read ${file}: ${(e as Error).message}\n`);
    return Exit.Usage;
  }
  if (mode === "document") {
    const whole = joinLines(document);
    let out = "";
    if (isJson(whole)) out = checker.line(whole);
    else for (const line of document) if (!isBlank(line)) out += checker.line(line);
    await writeResult(io.stdout, out);
  }
  if (checker.messages === 0) {
    await writeResult(io.stdout, "error - empty input\n");
    return Exit.Invalid;
  }
  return checker.failures === 0 ? Exit.Ok : Exit.Invalid;
}
