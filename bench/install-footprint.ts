/**
 * Installed footprint (issue 10, "Footprint"): what `npm install` puts on disk for a
 * project that depends on mcp-kernel, against one that depends on the official SDK 1.x,
 * or on its 2.x server and client packages.
 *
 * Ours is installed from the tarball `npm pack` makes, built without touching the source
 * tree: `scripts/build.mjs --outdir` into a temporary package directory holding copies of
 * package.json, README.md and LICENSE, then `npm pack --ignore-scripts` there (the
 * package's `files` and `prepack` produce the same contents in the tree). Each install runs
 * in an empty temporary project: `npm install --prefer-offline --no-audit --no-fund
 * --ignore-scripts --no-package-lock <spec…>`, served from the npm cache (the SDKs are
 * devDependencies here, so their trees are cached; the registry is asked only for what is
 * missing).
 *
 * Counting: every package directory under `node_modules` (scoped ones under their `@scope`,
 * nested `node_modules` included) is one package; bytes are the sizes of the regular files
 * in them (symlinks and npm's own dot-files such as `.bin` and `.package-lock.json` are
 * not counted).
 */
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, lstatSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** What an install left under `node_modules`. */
export interface Installed {
  /** Package directories. */
  packages: number;
  /** Bytes of regular files in them. */
  bytes: number;
  /** Package names (scoped as `@scope/name`; nested ones once per copy). */
  names: string[];
}

/** Bytes of the regular files under `dir`, skipping nested `node_modules` (counted as packages of their own). */
function packageBytes(dir: string, nested: string[]): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === "node_modules") nested.push(path);
      else bytes += packageBytes(path, nested);
    } else if (entry.isFile()) bytes += lstatSync(path).size;
  }
  return bytes;
}

/** Counts the packages and bytes under a `node_modules` directory (absent: none). */
export function countInstalled(nodeModules: string): Installed {
  const out: Installed = { packages: 0, bytes: 0, names: [] };
  const queue = existsSync(nodeModules) ? [nodeModules] : [];
  for (let dir = queue.shift(); dir !== undefined; dir = queue.shift()) {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith(".") || !entry.isDirectory()) continue;
      const dirs = entry.name.startsWith("@")
        ? readdirSync(join(dir, entry.name), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => [`${entry.name}/${e.name}`, join(dir, entry.name, e.name)] as const)
        : [[entry.name, join(dir, entry.name)] as const];
      for (const [name, path] of dirs) {
        out.packages++;
        out.names.push(name);
        out.bytes += packageBytes(path, queue);
      }
    }
  }
  return out;
}

/** Runs a command; resolves with its stdout, rejects with its stderr's tail. */
function run(cmd: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, npm_config_update_notifier: "false" } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(stdout) : reject(new Error(`${cmd} ${args.join(" ")} exited ${code}: ${stderr.trim().split("\n").slice(-3).join(" | ")}`))));
  });
}

const NPM = process.platform === "win32" ? "npm.cmd" : "npm";

/** Packs mcp-kernel from `root` into a temporary directory without touching the tree; resolves with the tarball's path. */
export async function packOurs(root: string): Promise<string> {
  const pkg = mkdtempSync(join(tmpdir(), "mcp-kernel-pack-"));
  for (const f of ["package.json", "README.md", "LICENSE"]) if (existsSync(join(root, f))) copyFileSync(join(root, f), join(pkg, f));
  await run(process.execPath, [join(root, "scripts", "build.mjs"), "--outdir", join(pkg, "dist")], root);
  const out = await run(NPM, ["pack", "--ignore-scripts", "--json", "--pack-destination", pkg], pkg);
  const [info] = JSON.parse(out) as { filename: string }[];
  return join(pkg, info.filename);
}

/** Installs `specs` into an empty temporary project and counts what landed; the project is removed afterwards. */
export async function installFootprint(specs: readonly string[]): Promise<Installed> {
  const project = mkdtempSync(join(tmpdir(), "mcp-kernel-install-"));
  try {
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "footprint-probe", version: "1.0.0", private: true }));
    await run(NPM, ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", "--no-package-lock", ...specs], project);
    return countInstalled(join(project, "node_modules"));
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}
