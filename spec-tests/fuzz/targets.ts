/** Every fuzz target, by name: what `fuzz.test.ts` runs on fixed seeds and `scripts/fuzz.mjs` runs long. */
import { codecBytes, codecText, validators } from "./codec-targets.js";
import { ndjson, sse } from "./framing-targets.js";
import { session } from "./session-target.js";
import { sessionTasks } from "./session-tasks-target.js";
import { http } from "./http-target.js";
import { statelessHttp } from "./stateless-http-target.js";
import { modernHttp, sseClient } from "./modern-http-target.js";
import { interleave } from "./interleave-target.js";
import { mrtrServer } from "./mrtr-server-target.js";
import type { FuzzTarget } from "./target.js";

export const TARGETS: FuzzTarget<any>[] = [codecText, codecBytes, validators, ndjson, sse, session, sessionTasks, http, statelessHttp, modernHttp, mrtrServer, sseClient, interleave];

export { runTarget, type FuzzFailure, type FuzzTarget } from "./target.js";
