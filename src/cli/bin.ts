// The `mcp-kernel` executable: all of the command line is in main.ts, tested in-process.
import { main } from "./main.js";
process.exitCode = await main(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  onStop(fn, every) {
    const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
    // Once: the first signal, whichever, takes all three handlers away, so a second one of
    // any kind (SIGTERM, then Ctrl-C) gets the default and stops the process at once.
    const once = (signal: NodeJS.Signals): void => {
      for (const s of signals) process.off(s, once);
      fn(signal);
    };
    for (const signal of signals) process.on(signal, every === true ? fn : once);
  },
});
