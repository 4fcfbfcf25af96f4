// Spec: 2025-11-25 basic/transports ("stdio", "Streamable HTTP", "Custom Transports"):
// the same adapters, unchanged, on Node (the running one, and the 22, 24 and 26 release lines),
// Deno, Bun, in headless Chromium and in workerd
// (Cloudflare's Workers runtime: `workerd serve` from the workerd devDependency). This runs
// scripts/test-runtimes.mjs (what `npm run test:runtimes` runs) under node:test, one
// test per runtime, concurrently; the cases are in fixtures/cases.ts. A runtime whose
// binary is missing fails in CI (CI=true) and is skipped elsewhere, with where it was
// looked for.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { projectRoot } from "../harness/project-root.js";

interface RuntimeResult {
  runtime: string;
  passed: number;
  failed: number;
  failures: { name: string; error: string }[];
  missing?: string;
}

interface RuntimesScript {
  RUNTIMES: string[];
  prepare(): Promise<{ dir: string; cleanup(): void }>;
  runRuntime(runtime: string, prepared: { dir: string }): Promise<RuntimeResult>;
  summaryLine(result: RuntimeResult): string;
}


const script = (await import(pathToFileURL(join(projectRoot(), "scripts", "test-runtimes.mjs")).href)) as RuntimesScript;
const inCi = process.env.CI === "true";

/** What each runtime runs, for the test names (fixtures/runtime-main.ts and browser-main.ts). */
const SERVER_SIDE =
  "memory pair and Web Streams in both eras, HTTP handler on the native server with the fetch client, stdio client spawning a server with the native API, the stdio shutdown sequence (stdin, SIGTERM, SIGKILL on an injected clock) and an unexpected exit";
const SCOPE: Record<string, string> = {
  node: `${SERVER_SIDE} (node:http, child_process)`,
  node22: `${SERVER_SIDE}, on Node 22 (scripts/fetch-node.mjs)`,
  node24: `${SERVER_SIDE}, on Node 24 (scripts/fetch-node.mjs)`,
  node26: `${SERVER_SIDE}, on Node 26 (scripts/fetch-node.mjs)`,
  deno: `${SERVER_SIDE} (Deno.serve, Deno.Command)`,
  bun: `${SERVER_SIDE} (Bun.serve, Bun.spawn)`,
  chromium: "a page loading the browser bundle: memory pair and Web Streams in both eras, the fetch client against the Node HTTP server",
  workerd:
    "a module worker (workerd serve): memory pair and Web Streams in both eras inside it; the fetch client inside one worker request against a Node HTTP server on 127.0.0.1 (globalOutbound allowing it; a legacy session with SSE answers, elicitation and DELETE; modern requests); and the dual-era HTTP handler built at global scope and served by its fetch export, to the Node client (a legacy session with SSE answers, elicitation and DELETE; modern requests)",
};

describe("runtimes: the transport scenarios on every runtime", { concurrency: true }, () => {
  let prepared: { dir: string; cleanup(): void } | undefined;
  before(async () => {
    prepared = await script.prepare();
  });
  after(() => prepared?.cleanup());

  for (const runtime of script.RUNTIMES) {
    test(`runtime ${runtime}: ${SCOPE[runtime] ?? "the scenarios"}`, async (t) => {
      const result = await script.runRuntime(runtime, prepared!);
      if (result.missing !== undefined) {
        if (inCi) assert.fail(`${result.missing} (CI=true: every runtime must be present)`);
        t.skip(result.missing);
        return;
      }
      const failures = result.failures.map((f) => `${f.name}: ${f.error}`).join("\n");
      assert.equal(result.failed, 0, `${script.summaryLine(result)}\n${failures}`);
      assert.ok(result.passed > 0, script.summaryLine(result));
    });
  }
});
