/**
 * The stdio transport: the entry point, on Node, Deno and Bun.
 *
 * Spec: `basic/transports` of 2025-11-25 ("stdio"), draft `basic/transports/stdio` and
 * the stdio part of "Shutdown" in `basic/lifecycle` of 2025-11-25. "The client launches
 * the MCP server as a subprocess. The server reads JSON-RPC messages from its standard
 * input (stdin) and sends messages to its standard output (stdout)"; "Messages are
 * delimited by newlines, and MUST NOT contain embedded newlines"; "The server MUST NOT
 * write anything to its stdout that is not a valid MCP message" (logs go to stderr).
 *
 * Theory of operation. Two functions, one per side, each picking the runtime's module by
 * looking at the globals (`Deno`, then `Bun`, else Node; Deno and Bun also define
 * `process`, so the order matters). Everything that is the same on every runtime lives in
 * `channel.ts` (framing, backpressure, the transport contract) and `child.ts` (the
 * subprocess lifecycle and shutdown sequence); the runtime modules are glue.
 *
 * - {@link stdioServerTransport}: this process is the server. The transport closes when
 *   stdin ends ("Servers SHOULD exit promptly when their standard input is closed"):
 *   the application's `onClose` is where it exits, or it simply lets the process end,
 *   since a closed transport holds nothing open. `close()` ends stdout, which is how the
 *   server "MAY initiate shutdown". On Node the client reads the end of stdout at once; Deno
 *   and Bun keep the process's fd 1 open until it exits (closing the stream releases it, not
 *   the fd), so there the client sees the end when the process exits: a server that closes
 *   and has more to do should exit.
 * - {@link spawnStdioServer}: this process is the client; see `child.ts`.
 *
 * A line that is not UTF-8 or is over `maxLineBytes` is delivered as a fixed message
 * the codec answers (`-32700` / `-32600`, id null), and the connection goes on; see
 * `channel.ts`. Write nothing but messages to stdout in a server: use `console.error`
 * for logs.
 *
 * Bundling: `stdio-node.ts` imports `node:child_process` and `node:stream`; a bundle for
 * platform "neutral" that includes this entry point marks `node:*` external (Deno and
 * Bun resolve those specifiers themselves).
 */
import type { Transport } from "../api/transport.js";
import type { ChannelOptions } from "./channel.js";
import { superviseChild, type SpawnFunction, type SpawnOptions, type StdioChild } from "./child.js";
import { bunSpawn } from "./stdio-bun.js";
import { denoServerTransport, denoSpawn } from "./stdio-deno.js";
import { nodeServerTransport, nodeSpawn } from "./stdio-node.js";

export type { ExitStatus, SpawnOptions, StderrMode, StdioChild } from "./child.js";

/** A JavaScript runtime this transport knows. */
export type Runtime = "node" | "deno" | "bun";

/** The runtime this code runs on, from its globals. */
export function detectRuntime(): Runtime {
  const g = globalThis as { Deno?: unknown; Bun?: unknown };
  if (g.Deno !== undefined) return "deno";
  if (g.Bun !== undefined) return "bun";
  return "node";
}

/** Options for {@link stdioServerTransport}. */
export type StdioServerOptions = Omit<ChannelOptions, "framing">;

/** The server side: a transport over this process's stdin and stdout. Create one per process. */
export function stdioServerTransport(options: StdioServerOptions = {}): Transport {
  return detectRuntime() === "deno" ? denoServerTransport(options) : nodeServerTransport(options);
}

const SPAWN: Record<Runtime, SpawnFunction> = { node: nodeSpawn, deno: denoSpawn, bun: bunSpawn };

/**
 * The client side: launches `command` with `args` as an MCP server and returns the
 * transport to it, with its pid and exit. A command that cannot be started gives a
 * transport that closes at once with the error; only options it would misread (a time
 * that is no number >= 0) throw, a RangeError naming the option.
 */
export function spawnStdioServer(command: string, args: readonly string[] = [], options: SpawnOptions = {}): StdioChild {
  return superviseChild(SPAWN[detectRuntime()], command, args, options);
}
