/**
 * The server side of stdio over a {@link CliIO}: `serve --stdio` reads its standard input
 * and writes its standard output through the same seam as every other verb, so the tests
 * run it in-process on in-memory streams.
 *
 * Spec: `basic/transports` of 2025-11-25 ("stdio"): newline-delimited messages in, the
 * same out, nothing else on stdout; "Servers SHOULD exit promptly when their standard
 * input is closed" (the transport closes when the input ends).
 *
 * Framing, bounds and back-pressure are {@link StreamChannel}'s; this file only pumps the
 * chunks in and hands the channel a sink over `io.stdout`.
 */
import { StreamChannel, type Transport } from "../index.js";
import type { CliIO, CliOutput } from "./io.js";
import { thrownMessage } from "../jsonrpc/errors.js";

/** Why the transport closed when standard input ended (the channel's own wording). */
const INPUT_ENDED = "the peer closed the stream";

/** A sink over a CLI output: waits for `drain` when the stream has it, else is never full. */
function outputSink(out: CliOutput): { write(chunk: string): boolean; waitDrain(fn: () => void): void; end(): void } {
  return {
    write: (chunk) => out.write(chunk) !== false,
    waitDrain: (fn) => (out.once === undefined ? queueMicrotask(fn) : void out.once("drain", fn)),
    // Standard output belongs to the process, which may still write its exit message.
    end: () => {},
  };
}

/**
 * A transport over `io.stdin` / `io.stdout`, and a promise that settles with the close
 * reason, whichever side closed. `took` is told each chunk read before the server gets it,
 * and `undefined` when the input ends.
 */
export function cliStdioTransport(io: CliIO, took?: (chunk: Uint8Array | string | undefined) => void): { transport: Transport; closed: Promise<string> } {
  let stopped = false;
  const channel = new StreamChannel(outputSink(io.stdout), { framing: "ndjson" }, () => {
    stopped = true;
    // A session closed for another reason than the input's end (EPIPE on stdout) stops reading
    // too: a pending read of a stream would keep the process alive until the client wrote again.
    (io.stdin as { destroy?: () => void }).destroy?.();
  });
  // A client that stops reading (EPIPE) ends the session, as it does for stdioServerTransport; it must not crash the process.
  io.stdout.on?.("error", (e) => channel.closeWith(`stdout failed: ${e.message}`));
  let done!: (reason: string) => void;
  const closed = new Promise<string>((resolve) => (done = resolve));
  void (async () => {
    try {
      for await (const chunk of io.stdin) {
        if (stopped) break;
        took?.(chunk);
        channel.push(chunk);
      }
      took?.(undefined);
      channel.endInput();
      channel.closeWith(INPUT_ENDED);
    } catch (e) {
      channel.closeWith(`stdin failed: ${thrownMessage(e)}`);
    }
  })();
  // The application registers its own close listener; the wrapper reports to both.
  const transport: Transport = {
    send: (text) => channel.send(text),
    onMessage: (fn) => channel.onMessage(fn),
    onClose: (fn) =>
      channel.onClose((reason) => {
        fn(reason);
        done(reason);
      }),
    close: () => channel.close(),
  };
  return { transport, closed };
}
