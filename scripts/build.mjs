#!/usr/bin/env node
// `npm run build`: the publishable package in dist/ (or --outdir DIR).
//
// The entry points are read from package.json's "exports", so adding a subpath there
// is all it takes: an export { "types": "./dist/types/<p>.d.ts", "import": "./dist/<n>.js" }
// bundles src/<p>.ts into <n>.js and declares it in types/<p>.d.ts. Three steps, the
// first two concurrent:
//   1. kernel bundles: every export, one esbuild run, ESM, minified, platform "neutral"
//      (no Node built-ins, so the same files run in Node, Deno, Bun and browsers), with
//      code splitting so the root and the subpaths share chunks instead of each carrying
//      a copy (one copy of every table in memory when both are imported);
//   2. declarations: tsc --declaration --emitDeclarationOnly over the entry points, into
//      types/ (a temporary tsconfig extends the project's, so the options stay in one place);
//   3. the CLI, src/cli/bin.ts → cli.js, platform "node", with a #! line. It imports the
//      kernel only through src/index.ts, which is rewritten to the sibling ./index.js, so
//      the CLI adds a few kilobytes rather than a second copy of the kernel (importing a
//      kernel module any other way from src/cli/ fails the build, naming the import).
// Output is deterministic: esbuild names chunks by content hash, and the outdir is
// emptied first so no stale chunk survives.
import { build } from "esbuild";
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const TARGET = "es2022";

/** package.json exports → [{ name, entry, types }] (paths relative to the outdir / root). */
export function entryPoints(pkg) {
  const out = [];
  for (const [subpath, conditions] of Object.entries(pkg.exports ?? {})) {
    if (typeof conditions === "string") continue; // "./package.json"
    const types = stripPrefix(conditions.types, "./dist/types/", subpath);
    const js = stripPrefix(conditions.import, "./dist/", subpath);
    out.push({
      subpath,
      name: js.replace(/\.js$/, ""),
      entry: join("src", types.replace(/\.d\.ts$/, ".ts")),
      types: join("types", types),
    });
  }
  return out;
}

function stripPrefix(path, prefix, subpath) {
  if (typeof path !== "string" || !path.startsWith(prefix)) {
    throw new Error(`package.json exports["${subpath}"]: expected a path under ${prefix}, got ${JSON.stringify(path)}`);
  }
  return path.slice(prefix.length);
}

/** Refuses to empty a directory that looks like a source tree rather than build output. */
function cleanOutdir(outdir) {
  const up = relative(outdir, root);
  if (up === "" || (!up.startsWith("..") && !isAbsolute(up))) {
    throw new Error(`--outdir ${outdir} is the project or one of its parents`);
  }
  const down = relative(root, outdir);
  if (!down.startsWith("..") && !isAbsolute(down) && down.split(sep)[0] !== "dist") {
    throw new Error(`--outdir ${outdir}: inside the project, only dist/ may be emptied and rebuilt`);
  }
  if (existsSync(join(outdir, "package.json")) || existsSync(join(outdir, ".git"))) {
    throw new Error(`--outdir ${outdir} holds a package.json or .git: not a build directory`);
  }
  rmSync(outdir, { recursive: true, force: true });
}

function run(cmd, args) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolvePromise() : reject(new Error(`${cmd} ${args.join(" ")} exited with ${code}`))));
  });
}

async function declarations(entries, outdir) {
  const dir = mkdtempSync(join(tmpdir(), "mcp-kernel-build-"));
  const config = join(dir, "tsconfig.json");
  writeFileSync(config, JSON.stringify({
    extends: join(root, "tsconfig.json"),
    compilerOptions: {
      rootDir: join(root, "src"),
      outDir: join(outdir, "types"),
      declaration: true,
      emitDeclarationOnly: true,
      sourceMap: false,
      // Type packages resolve from the config's folder, which is a temporary one.
      typeRoots: [join(root, "node_modules", "@types")],
    },
    files: entries.map((e) => join(root, e.entry)),
    include: [],
  }));
  try {
    await run(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", config]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Builds the kernel bundles; resolves to the set of source files they contain. */
async function kernel(entries, outdir) {
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(entries.map((e) => [e.name, e.entry])),
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "neutral",
    target: TARGET,
    minify: true,
    chunkNames: "chunks/[name]-[hash]",
    metafile: true,
    logLevel: "warning",
  });
  return new Set(Object.keys(metafile.inputs));
}

/**
 * Sends the CLI's `../index.js` (the package root) to the sibling bundle instead of
 * bundling it again, and refuses any other import from src/cli/ of a module that is in
 * the kernel bundles: it would put a second copy of that code in cli.js. Modules the
 * kernel does not contain (Node-only adapters, say) are bundled into cli.js as usual.
 */
function rootAsSibling(kernelInputs) {
  const cliDir = join(root, "src", "cli");
  return {
    name: "root-as-sibling",
    setup(b) {
      b.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (!args.importer.startsWith(cliDir + sep)) return undefined;
        if (dirname(args.importer) === cliDir && args.path === "../index.js") return { path: "./index.js", external: true };
        const target = relative(root, resolve(dirname(args.importer), args.path)).replace(/\.js$/, ".ts").split(sep).join("/");
        if (!kernelInputs.has(target)) return undefined;
        return { errors: [{ text: `${target} is in the kernel bundle: import it through "../index.js" so cli.js shares dist/index.js` }] };
      });
    },
  };
}

async function cli(outdir, kernelInputs) {
  const outfile = join(outdir, "cli.js");
  await build({
    absWorkingDir: root,
    entryPoints: ["src/cli/bin.ts"],
    outfile,
    bundle: true,
    format: "esm",
    platform: "node",
    target: TARGET,
    minify: true,
    banner: { js: "#!/usr/bin/env node" },
    plugins: [rootAsSibling(kernelInputs)],
    logLevel: "warning",
  });
  chmodSync(outfile, 0o755);
}

function sizes(outdir) {
  const rows = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".js")) {
        const bytes = readFileSync(path);
        rows.push(`  ${relative(outdir, path).padEnd(36)} ${String(bytes.length).padStart(8)} B  ${String(gzipSync(bytes).length).padStart(7)} B gzip`);
      }
    }
  };
  walk(outdir);
  return rows.join("\n");
}

/** Builds the package into `outdir`. */
export async function buildPackage({ outdir = join(root, "dist"), quiet = false } = {}) {
  outdir = resolve(outdir);
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const entries = entryPoints(pkg);
  for (const e of entries) {
    if (!existsSync(join(root, e.entry))) throw new Error(`package.json exports["${e.subpath}"]: ${e.entry} does not exist`);
  }
  cleanOutdir(outdir);
  const [kernelInputs] = await Promise.all([kernel(entries, outdir), declarations(entries, outdir)]);
  await cli(outdir, kernelInputs);
  if (!quiet) process.stdout.write(`built ${relative(process.cwd(), outdir) || "."}\n${sizes(outdir)}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  let outdir;
  let quiet = false;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--outdir" && i + 1 < args.length) outdir = args[++i];
    else if (args[i].startsWith("--outdir=")) outdir = args[i].slice("--outdir=".length);
    else if (args[i] === "--quiet") quiet = true;
    else {
      process.stderr.write(`usage: node scripts/build.mjs [--outdir DIR] [--quiet]\n`);
      process.exit(2);
    }
  }
  buildPackage({ outdir, quiet }).catch((e) => {
    process.stderr.write(`build failed: ${e.message}\n`);
    process.exitCode = 1;
  });
}
