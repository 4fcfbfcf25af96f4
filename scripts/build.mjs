#!/usr/bin/env node
// `npm run build`: the publishable package in dist/ (or --outdir DIR).
//
// The entry points are read from package.json's "exports", so adding a subpath there
// is all it takes: an export { "types": "./dist/types/<p>.d.ts", "default": "./dist/<n>.js" }
// bundles src/<p>.ts into <n>.js and declares it in types/<p>.d.ts. Three steps, the
// first two concurrent:
//   1. kernel bundles: every export, one esbuild run, ESM, minified but for whitespace, platform "neutral",
//      with code splitting so the root and the subpaths share chunks instead of each
//      carrying a copy (one copy of every table in memory when both are imported).
//      `node:*` stays external; only the entries listed in NODE_ENTRIES ("./node") may
//      reach it, so every other entry runs in Node, Deno, Bun and browsers alike. The
//      build fails, naming the path, when a neutral entry's import graph reaches `node:`;
//   2. declarations: tsc --declaration --emitDeclarationOnly over the entry points, into
//      types/ (a temporary tsconfig extends the project's, so the options stay in one place);
//   3. the CLI, src/cli/bin.ts → cli.js, platform "node", with a #! line. It shares the
//      kernel bundles rather than carrying a second copy: src/index.ts and the other entry
//      modules resolve to their sibling bundles (./index.js, ./node.js), and any other
//      kernel module that the CLI side (src/cli/, the demo server) imports resolves to
//      the public names of those bundles. Afterwards every name cli.js imports from a
//      sibling is checked against what that sibling exports, so importing an internal
//      name fails the build instead of the first run (for the kernel modules besides the
//      entries, esbuild itself fails it: see publicReexports).
// Output is deterministic: esbuild names chunks by content hash, and the outdir is
// emptied first so no stale chunk survives.
import { build } from "esbuild";
import { spawn } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const TARGET = "es2022";
/** The specification's licence, as shipped in the outdir. */
export const SPEC_LICENSE = "LICENSE-MCP-SPEC";
/** Subpaths whose bundles may import Node's built-ins. */
const NODE_ENTRIES = new Set(["./node"]);

/** package.json exports → [{ name, entry, types }] (paths relative to the outdir / root). */
export function entryPoints(pkg) {
  const out = [];
  for (const [subpath, conditions] of Object.entries(pkg.exports ?? {})) {
    if (typeof conditions === "string") continue; // "./package.json"
    const types = stripPrefix(conditions.types, "./dist/types/", subpath);
    const js = stripPrefix(conditions.default, "./dist/", subpath);
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

/**
 * Builds the kernel bundles; resolves to the source files they contain and, per entry
 * module (source path), its bundle's file name and exported names.
 */
async function kernel(entries, outdir) {
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(entries.map((e) => [e.name, e.entry])),
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "neutral",
    external: ["node:*"],
    target: TARGET,
    // Not minifyWhitespace: it drops the /* @__PURE__ */ annotations esbuild writes on
    // top-level initialisers, and without them a consumer's bundler keeps every initialiser
    // of a shared chunk (a client bundled from the package was 42 KB gzip, 38 KB from the
    // sources; spec-tests/cli/build.test.ts). The whitespace costs ~150 KB installed, not a
    // byte in the consumer's bundle. For the same reason the sources mark their top-level
    // tables (Object.freeze, text codecs, built tables) /* @__PURE__ */.
    minifySyntax: true,
    // Not minifyIdentifiers either: the public classes would print as one-letter names in
    // logs and stack traces (an error logged as `b [McpError]`), and a consumer's minifier
    // renames them in its own bundle anyway (its size is unchanged; the install ~90 KB more).
    minifyIdentifiers: false,
    chunkNames: "chunks/[name]-[hash]",
    metafile: true,
    logLevel: "warning",
  });
  const errors = neutralityErrors(metafile, entries);
  if (errors.length > 0) throw new Error(errors.join("\n"));
  const bundles = new Map();
  for (const [file, output] of Object.entries(metafile.outputs)) {
    if (output.entryPoint === undefined) continue;
    bundles.set(output.entryPoint, { file: "./" + relative(outdir, resolve(root, file)).split(sep).join("/"), exports: new Set(output.exports) });
  }
  return { inputs: new Set(Object.keys(metafile.inputs)), bundles };
}

/**
 * For every entry not in {@link NODE_ENTRIES}: the chain of bundle files by which it
 * reaches a `node:` import, if it does (static and dynamic imports both count).
 */
export function neutralityErrors(metafile, entries) {
  const errors = [];
  const outputOf = new Map(Object.entries(metafile.outputs).filter(([, o]) => o.entryPoint !== undefined).map(([f, o]) => [o.entryPoint, f]));
  for (const e of entries) {
    if (NODE_ENTRIES.has(e.subpath)) continue;
    const start = outputOf.get(e.entry.split(sep).join("/"));
    const seen = new Set([start]);
    const queue = [[start]];
    while (queue.length > 0) {
      const chain = queue.shift();
      for (const imp of metafile.outputs[chain.at(-1)]?.imports ?? []) {
        if (imp.path.startsWith("node:")) errors.push(`exports["${e.subpath}"] must not reach Node built-ins: ${[...chain, imp.path].join(" -> ")}`);
        else if (!imp.external && !seen.has(imp.path)) {
          seen.add(imp.path);
          queue.push([...chain, imp.path]);
        }
      }
    }
  }
  return errors;
}

/**
 * Keeps the kernel out of cli.js. From the CLI side (every module the CLI bundle pulls in
 * that is not itself in the kernel bundles: src/cli/, the demo server), an import of an
 * entry module (src/index.ts, src/node.ts) becomes an import of its sibling bundle, and
 * an import of any other kernel module becomes a virtual module re-exporting the public
 * names of the siblings: the CLI side then uses the one copy of each class the package
 * ships (an `instanceof` across the two still holds). Modules the kernel does not
 * contain are bundled into cli.js as usual.
 */
export function kernelAsSiblings(kernelInputs, bundles) {
  const PUBLIC = "(the package's public names)";
  const publicNames = publicReexports(bundles);
  return {
    name: "kernel-as-siblings",
    setup(b) {
      b.onResolve({ filter: /^\.\.?\// }, (args) => {
        // A verb module loaded on demand that is not written yet: left for a clear run-time error.
        if (args.kind === "dynamic-import" && !existsSync(resolve(dirname(args.importer), args.path).replace(/\.js$/, ".ts"))) {
          return { path: args.path, external: true, warnings: [{ text: `${args.path} does not exist: the verb that loads it fails when run` }] };
        }
        const importer = relative(root, args.importer).split(sep).join("/");
        if (args.importer === "" || kernelInputs.has(importer) || importer.startsWith("..")) return undefined;
        const target = relative(root, resolve(dirname(args.importer), args.path)).replace(/\.js$/, ".ts").split(sep).join("/");
        if (!kernelInputs.has(target)) return undefined;
        const entry = bundles.get(target);
        if (entry !== undefined) return { path: entry.file, external: true };
        return { path: target, namespace: "kernel-public" };
      });
      // Each module stands for one kernel module (so esbuild's errors name it), all
      // through one list, so cli.js holds one import clause per sibling and not one per module.
      b.onLoad({ filter: /.*/, namespace: "kernel-public" }, (args) => ({
        contents: args.path === PUBLIC ? publicNames : `export * from ${JSON.stringify(PUBLIC)};`,
        loader: "js",
      }));
      b.onResolve({ filter: /.*/, namespace: "kernel-public" }, (args) =>
        args.path === PUBLIC ? { path: PUBLIC, namespace: "kernel-public" } : { path: args.path, external: true },
      );
    },
  };
}

/**
 * The "kernel-public" module: every name the sibling bundles export, each re-exported by
 * name from the first sibling that has it (the same binding in all of them: they share
 * chunks). By name, not `export *`: esbuild cannot see through `export *` from an external
 * module, so it compiles an import of a name no sibling exports into a property read that
 * is undefined at run time; against an explicit list, that import fails the build.
 */
export function publicReexports(bundles) {
  const taken = new Set();
  const lines = [];
  for (const { file, exports } of bundles.values()) {
    const names = [...exports].filter((name) => !taken.has(name)).sort();
    for (const name of names) taken.add(name);
    if (names.length > 0) lines.push(`export { ${names.join(", ")} } from ${JSON.stringify(file)};`);
  }
  return lines.join("\n");
}

/**
 * The names cli.js imports from each sibling bundle that the sibling does not export
 * (a link error at start-up otherwise). Reads esbuild's minified ESM import clauses.
 */
export function missingSiblingImports(cliText, bundles) {
  const exportsOf = new Map([...bundles.values()].map((b) => [b.file, b.exports]));
  const missing = [];
  for (const m of cliText.matchAll(/import\s*\{([^}]*)\}\s*from\s*"(\.\/[^"]+)"/g)) {
    const names = exportsOf.get(m[2]);
    if (names === undefined) continue;
    for (const clause of m[1].split(",")) {
      const name = clause.trim().split(/\s+as\s+/)[0];
      if (name !== "" && !names.has(name)) missing.push(`${m[2]} does not export ${name}`);
    }
  }
  return missing;
}

async function cli(outdir, { inputs, bundles }) {
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
    plugins: [kernelAsSiblings(inputs, bundles)],
    logLevel: "warning",
  }).catch((e) => {
    if (!/No matching export in "kernel-public:/.test(e.message)) throw e;
    throw new Error(`${e.message}\ncli.js imports kernel modules through the package's public names: export the name from the package, or import it otherwise`);
  });
  const missing = missingSiblingImports(readFileSync(outfile, "utf8"), bundles);
  if (missing.length > 0) throw new Error(`cli.js imports names the package does not export (export them, or bundle the module):\n  ${missing.join("\n  ")}`);
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
  const [kernelBuild] = await Promise.all([kernel(entries, outdir), declarations(entries, outdir)]);
  await cli(outdir, kernelBuild);
  // The validators in the bundles are generated from the specification's schema.json:
  // its licence travels with them (Apache-2.0 §4(a)).
  copyFileSync(join(root, "scripts", "spec", "LICENSE"), join(outdir, SPEC_LICENSE));
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
