/**
 * Footprint rows: the size of a minimal server and a minimal client, bundled the same way
 * for us and for each SDK, minified, then gzip and brotli (node:zlib, best levels).
 *
 * The entries are bench/peers/<impl>-stdio.ts (a server with one tool, on stdio) and
 * bench/peers/<impl>-client.ts (spawn a stdio server, call the tool once), each importing
 * only its own implementation plus the shared workload constants. Ours are the classes
 * without the task runtime (`McpServerCore`, `McpClientCore`: a minimal server has no
 * task tools); the `McpServer` / `McpClient` rows (ours-*-full.ts) bundle the ones with it. One esbuild run per
 * entry: bundle, minify, ESM, platform node (built-ins external, everything else inlined:
 * zod, ajv, cross-spawn… for the SDKs), es2022. Targets (issue 10): our server ≤ 15 KB and
 * client ≤ 12 KB gzip; the SDK rows' ratio is their gzip size ÷ ours.
 *
 * Install rows (install-footprint.ts): bytes and packages `npm install` leaves in an empty
 * project for our packed tarball, for `@modelcontextprotocol/sdk` 1.32.2 and for
 * `@modelcontextprotocol/server` + `client` 2.4.0; the SDK rows' ratio is their bytes ÷
 * ours. A row of its own counts our installed dependencies (packages besides mcp-kernel):
 * it passes at 0, the issue's "zero installed dependencies".
 *
 * The bundles are also written to disk: cold-start.ts spawns the server bundles, so cold
 * start compares one file per implementation, not our unbundled compiled tree against the
 * SDKs' prebuilt dist.
 */
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import type { Measured, Row } from "./async-harness.js";
import { installFootprint, packOurs, type Installed } from "./install-footprint.js";
import type { Impl } from "./vs-sdk.js";
import { LABEL } from "./vs-sdk.js";

/** The repository root: the first ancestor of this file holding bench/peers/workload.ts (works from .build/ and from an out-of-tree build run in the repo). */
export function sourceRoot(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); dirname(dir) !== dir; dir = dirname(dir)) {
    if (existsSync(join(dir, "bench", "peers", "workload.ts"))) return dir;
  }
  if (existsSync(join(process.cwd(), "bench", "peers", "workload.ts"))) return process.cwd();
  throw new Error("cannot find the source tree (bench/peers/workload.ts)");
}

/** Sizes of one bundle, in bytes. */
export interface BundleSize {
  file: string;
  min: number;
  gzip: number;
  brotli: number;
}

/** CommonJS dependencies of the SDKs (cross-spawn) call `require`; an ESM bundle needs one. Same banner for every bundle. */
const BANNER = 'import{createRequire as __cr}from"node:module";const require=__cr(import.meta.url);';

const cache = new Map<string, BundleSize>();

/** Bundles `bench/peers/<entry>.ts` into a temp dir (once per process) and measures it. */
export async function bundle(entry: string): Promise<BundleSize> {
  const hit = cache.get(entry);
  if (hit !== undefined) return hit;
  const { build } = await import("esbuild");
  const outdir = join(tmpdir(), `mcp-kernel-bench-${process.pid}`);
  mkdirSync(outdir, { recursive: true });
  const file = join(outdir, `${entry}.mjs`);
  const result = await build({
    entryPoints: [join(sourceRoot(), "bench", "peers", `${entry}.ts`)],
    outfile: file,
    bundle: true,
    minify: true,
    format: "esm",
    platform: "node",
    target: "es2022",
    banner: { js: BANNER },
    write: true,
    metafile: false,
    logLevel: "silent",
    legalComments: "none",
  });
  if (result.errors.length > 0) throw new Error(`esbuild ${entry}: ${result.errors[0].text}`);
  const { readFileSync } = await import("node:fs");
  const bytes = readFileSync(file);
  const size: BundleSize = {
    file,
    min: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }).length,
  };
  cache.set(entry, size);
  return size;
}

const IMPLS: Impl[] = ["ours", "sdk1", "sdk2"];
const LIMIT = { server: 15 * 1024, client: 12 * 1024 };

/** A bundle's row figures: its gzip size is what the ratio divides. */
function sizes(s: BundleSize): Measured {
  return { cost: s.gzip, minBytes: s.min, gzipBytes: s.gzip, brotliBytes: s.brotli };
}

/** Footprint rows: server and client bundle of each implementation. */
export function footprintRows(): Row[] {
  const rows: Row[] = [];
  for (const role of ["server", "client"] as const) {
    const ours = `footprint ${role} bundle: ours`;
    for (const impl of IMPLS) {
      rows.push({
        name: `footprint ${role} bundle: ${LABEL[impl]}`,
        metric: "gzip",
        ...(impl === "ours" ? {} : { baseline: ours }),
        measure: async () => {
          const s = sizes(await bundle(`${impl}-${role === "server" ? "stdio" : "client"}`));
          return impl === "ours" ? { ...s, limit: LIMIT[role] } : s;
        },
      });
    }
    rows.push({
      name: `footprint ${role} bundle: ours (${role === "server" ? "McpServer" : "McpClient"}, task runtime included)`,
      metric: "gzip",
      baseline: ours,
      measure: async () => sizes(await bundle(role === "server" ? "ours-stdio-full" : "ours-client-full")),
    });
  }
  return rows;
}

/** The packages each install row asks npm for (ours: the packed tarball, resolved at run time). */
export const INSTALL_SPECS: Record<Exclude<Impl, "ours">, string[]> = {
  sdk1: ["@modelcontextprotocol/sdk@1.32.2"],
  sdk2: ["@modelcontextprotocol/server@2.4.0", "@modelcontextprotocol/client@2.4.0"],
};

let ours: Promise<Installed> | undefined;

/** Our tarball installed (packed and installed once per process; the pack directory removed afterwards). */
function oursInstalled(): Promise<Installed> {
  ours ??= (async () => {
    const tarball = await packOurs(sourceRoot());
    try {
      return await installFootprint([tarball]);
    } finally {
      rmSync(dirname(tarball), { recursive: true, force: true });
    }
  })();
  return ours;
}

/** Install rows: bytes on disk of each implementation's install, and our dependency count. */
export function installRows(): Row[] {
  const base = "footprint install: ours";
  const rows: Row[] = [
    {
      name: base,
      metric: "installed",
      measure: async () => {
        const i = await oursInstalled();
        return { cost: i.bytes, packages: i.packages, installedBytes: i.bytes };
      },
    },
    {
      name: "footprint install dependencies: ours",
      metric: "installed",
      note: "packages npm installs besides mcp-kernel itself; limit 0",
      measure: async () => {
        const i = await oursInstalled();
        const deps = i.names.filter((n) => n !== "mcp-kernel").length;
        return { cost: deps, packages: i.packages, installedBytes: i.bytes, limit: 0, limitUnit: "packages" };
      },
    },
  ];
  for (const impl of ["sdk1", "sdk2"] as const) {
    rows.push({
      name: `footprint install: ${impl === "sdk1" ? LABEL.sdk1 : `${LABEL.sdk2} (server + client)`}`,
      metric: "installed",
      baseline: base,
      measure: async () => {
        const i = await installFootprint(INSTALL_SPECS[impl]);
        return { cost: i.bytes, packages: i.packages, installedBytes: i.bytes };
      },
    });
  }
  return rows;
}
