#!/usr/bin/env node
// `node scripts/fetch-node.mjs`: puts the Node.js releases `npm run test:runtimes` also runs
// the transport scenarios on (runtimes node22, node24 and node26: the release lines users
// run, beside the Node that runs the tests) in .cache/node/<major>/node. .ci/run calls it.
//
// The binaries come from the npm registry: the official builds packed as
// `node-<platform>-<arch>`, the packages the `node` package installs, so nothing but npm is
// needed. Versions are pinned, so a CI run tests what the last one did. Linux on x64 and
// arm64 only (the packages of other platforms are not on the registry under these names);
// elsewhere, point NODE22_BIN, NODE24_BIN or NODE26_BIN at a binary instead.
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** The pinned release of each line. */
export const NODE_RELEASES = { 22: "22.23.5", 24: "24.22.3", 26: "26.12.1" };

/** Where the binary of release line `major` is kept. */
export function cachedNode(major) {
  return join(root, ".cache", "node", String(major), "node");
}

function fetchOne(major) {
  const bin = cachedNode(major);
  if (existsSync(bin)) return `node${major}: ${bin} (cached)`;
  if (process.platform !== "linux" || (process.arch !== "x64" && process.arch !== "arm64")) {
    return `node${major}: no registry package for ${process.platform}-${process.arch}; set NODE${major}_BIN`;
  }
  const spec = `node-linux-${process.arch}@${NODE_RELEASES[major]}`;
  const tmp = mkdtempSync(join(tmpdir(), "mcp-kernel-node-"));
  try {
    const tarball = execFileSync("npm", ["pack", spec, "--pack-destination", tmp, "--silent"], { encoding: "utf8" }).trim().split("\n").pop();
    execFileSync("tar", ["xzf", join(tmp, tarball), "-C", tmp, "package/bin/node"]);
    mkdirSync(dirname(bin), { recursive: true });
    copyFileSync(join(tmp, "package", "bin", "node"), bin);
    chmodSync(bin, 0o755);
    return `node${major}: ${bin} (${spec})`;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const major of Object.keys(NODE_RELEASES)) console.log(fetchOne(major));
}
