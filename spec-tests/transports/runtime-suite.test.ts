/**
 * The runtime-neutral adapter suite (runtime-suite.ts) under node:test: one test per
 * case, so a failure names its case. Deno and Bun run runtime-suite.ts itself.
 */
import { test } from "node:test";
import { CASES } from "./runtime-suite.js";

for (const c of CASES) test(c.name, () => c.run());
