/**
 * `mcp-kernel serve [--port N] [--stateless] [--stdio]`: the demo server, over Streamable
 * HTTP (`--stateless`: 2025-era clients without sessions) or stdio.
 *
 * Spec: 2025-11-25 `basic/transports` ("stdio": nothing but messages on stdout, so the
 * address line goes to stderr; "Streamable HTTP": bind to localhost only when running
 * locally) and the draft's `basic/transports/streamable-http` for the modern era.
 *
 * HTTP listens on 127.0.0.1 only (port 3000 unless `--port`; 0 picks a free port) at
 * `/mcp`, prints `listening on http://127.0.0.1:PORT/mcp` to stderr, and runs until the
 * process is asked to stop (SIGINT, SIGTERM, SIGHUP), then lets the requests in flight
 * finish (up to {@link DRAIN_MS}), closes its sessions and exits 0. With
 * `--stdio` it serves standard input and output and exits 0 when the input ends; run
 * under `mcp-kernel record`, it also reports what it draws from the clock and the random
 * source (`draws.ts`), for the transcript.
 */
import { serveNode } from "../node.js";
import type { DemoOptions } from "../demo/server.js";
import { cliDemoServer, serverHttpHandler } from "./demo.js";
import { systemClock } from "../driver/clock.js";
import { DRAWS_ENV, drawLog, drawnServer, inputOrder, systemDraws } from "./draws.js";
import { Exit, writeOut, writeResult } from "./io.js";
import type { CliIO, Verb } from "./io.js";
import { cliStdioTransport } from "./io-transport.js";
import { thrownMessage } from "../jsonrpc/errors.js";

/** The port `serve` listens on without `--port`. */
export const DEFAULT_PORT = 3000;

/**
 * How long HTTP `serve`, once asked to stop, lets the requests in flight finish (no new one
 * is taken meanwhile); a second signal stops it at once (the default `onStop` leaves).
 */
export const DRAIN_MS = 10_000;

const USAGE = `usage: mcp-kernel serve [--port N] [--stateless] [--stdio]

Runs the demo server (both protocol eras: 2024-11-05 to 2026-07-28); over HTTP also the
deprecated HTTP+SSE transport for older clients, at /sse (unless --stateless).
  --port N      listen on http://127.0.0.1:N/mcp (default ${DEFAULT_PORT}; 0 picks a free port)
  --stateless   serve 2025-era clients over HTTP without sessions (each POST on its own)
  --stdio       serve standard input and output instead of HTTP

Over HTTP, asked to stop (SIGINT, SIGTERM, SIGHUP) it takes no new request and lets those
in flight finish for up to ${DRAIN_MS / 1000} s; a second signal stops it at once.
`;

type ServeArgs = { stdio: boolean; port: number; stateless: boolean } | { help: true } | { error: string };

/** Parses the verb's arguments. */
export function parseServeArgs(args: readonly string[]): ServeArgs {
  let stdio = false;
  let stateless = false;
  let port = DEFAULT_PORT;
  let portGiven = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--help" || a === "-h") return { help: true };
    if (a === "--stdio") stdio = true;
    else if (a === "--stateless") stateless = true;
    else if (a === "--port" || a.startsWith("--port=")) {
      const value = a === "--port" ? args[++i] : a.slice("--port=".length);
      if (value === undefined || !/^\d{1,5}$/.test(value) || Number(value) > 65535) return { error: `--port needs a number from 0 to 65535, got ${JSON.stringify(value ?? "")}` };
      port = Number(value);
      portGiven = true;
    } else return { error: `unknown argument ${JSON.stringify(a)}` };
  }
  if (stdio && portGiven) return { error: "--port and --stdio exclude each other" };
  if (stdio && stateless) return { error: "--stateless is for HTTP; --stdio has one session by nature" };
  return { stdio, port, stateless };
}

/**
 * The demo's options for `serve --stdio`: under `record` (which names a file in
 * {@link DRAWS_ENV}) the server's draws, with how it read its input (`took`) and where its
 * timers fired, go to that file, so the transcript replays identically; a file that
 * cannot be written is said on stderr, and serving goes on.
 */
async function stdioOptions(env: Readonly<Record<string, string | undefined>>, io: CliIO): Promise<{ options: DemoOptions; took?: (chunk: Uint8Array | string | undefined) => void }> {
  const file = env[DRAWS_ENV];
  if (file === undefined || file === "") return { options: {} };
  try {
    const report = drawLog(file);
    const timers = inputOrder(systemClock, report);
    const server = drawnServer(systemDraws(report), { finished: (n) => report({ draw: "settled", n }) }).options;
    return { options: { clock: timers.clock, server }, took: timers.took };
  } catch (e) {
    await writeOut(io.stderr, `mcp-kernel serve: cannot write draws to ${file} (${thrownMessage(e)}): task ids and requestState in the transcript will not replay identically\n`);
    return { options: {} };
  }
}

async function run(args: string[], io: CliIO, env: Readonly<Record<string, string | undefined>> = process.env): Promise<number> {
  const parsed = parseServeArgs(args);
  if ("help" in parsed) {
    await writeResult(io.stdout, USAGE);
    return Exit.Ok;
  }
  if ("error" in parsed) {
    await writeOut(io.stderr, `mcp-kernel serve: ${parsed.error}\n\n${USAGE}`);
    return Exit.Usage;
  }
  if (parsed.stdio) {
    const { options, took } = await stdioOptions(env, io);
    const server = cliDemoServer(options);
    const { transport, closed } = cliStdioTransport(io, took);
    server.connect(transport);
    await closed;
    server.close();
    return Exit.Ok;
  }
  const server = cliDemoServer();
  const handler = serverHttpHandler(server, "/mcp", parsed.stateless);
  let http;
  try {
    http = await serveNode(handler, { port: parsed.port, host: "127.0.0.1" });
  } catch (e) {
    await writeOut(io.stderr, `mcp-kernel serve: cannot listen on 127.0.0.1:${parsed.port}: ${thrownMessage(e)}\n`);
    return Exit.Invalid;
  }
  const stopped = new Promise<void>((resolve) => io.onStop?.(() => resolve()));
  await writeOut(io.stderr, `listening on ${http.url}/mcp\n`);
  await stopped;
  await writeOut(io.stderr, `closing: the requests in flight have up to ${DRAIN_MS / 1000} s to finish (signal again to stop at once)\n`);
  await handler.close({ drainMs: DRAIN_MS });
  server.close();
  await http.close();
  return Exit.Ok;
}

/** The `serve` verb. */
export const serveVerb: Verb = { summary: "run the demo server (HTTP on 127.0.0.1:3000/mcp, or --stdio)", usage: USAGE, run };
