// The `mcp-kernel` executable: all of the command line is in main.ts, tested in-process.
import { main } from "./main.js";
process.exitCode = await main(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  onStop(fn, every) {
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process[every === true ? "on" : "once"](signal, () => fn(signal));
  },
});
