// The checkout the tests run in, for the files they use uncompiled (scripts/, README.md,
// package.json): the nearest folder above the working directory holding mcp-kernel's
// package.json.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** The project root; throws when the tests run outside the mcp-kernel checkout. */
export function projectRoot(): string {
  for (let dir = process.cwd(); ; dir = dirname(dir)) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg) && JSON.parse(readFileSync(pkg, "utf8")).name === "mcp-kernel") return dir;
    if (dirname(dir) === dir) throw new Error("run the tests from inside the mcp-kernel checkout");
  }
}
