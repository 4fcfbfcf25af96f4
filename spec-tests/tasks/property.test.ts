/**
 * Property test over the task table: random (partly malformed) inputs in both dialects
 * never throw, never hit the internal-error path, keep the state JSON and its indexes
 * consistent, answer every request at most once (a blocked tasks/result exactly once
 * unless abandoned), and every 2025-11-25 answer matches the 2025-11-25 schema.
 * Spec: 2025-11-25 `basic/utilities/tasks` (whole page), SEP-2663.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { RequestId } from "../../src/jsonrpc/types.js";
import { validate } from "../../src/schema/validate.js";
import { taskOwnerKey, waiterKey } from "../../src/tasks/records.js";
import { TASK_STATUSES } from "../../src/tasks/status.js";
import { createTaskTable, nextTaskDeadline, restoreTasks, snapshotTasks, stepTasks } from "../../src/tasks/table.js";
import type { TaskInput, TaskOutput, TaskTableState } from "../../src/tasks/types.js";
import { pick, rng } from "../harness/random.js";

const IDS = ["t0", "t1", "t2", "t3", "__proto__", "constructor", "10", "", 7 as unknown as string];
const OWNERS = [{ session: "a" }, { session: "b" }, { session: "a", principal: "p" }, {}, { principal: "p" }, { session: 3 } as never, null as never];
const METHODS = ["tasks/get", "tasks/result", "tasks/list", "tasks/cancel", "tasks/update", "tasks/nope", "tools/call"];
const RESULTS = [{ content: [] }, { content: [], isError: true }, [] as never, undefined];
const ERRORS = [{ code: -32603, message: "boom" }, { code: "x", message: 1 } as never, undefined];

function checkInvariants(state: TaskTableState): void {
  assert.deepStrictEqual(JSON.parse(JSON.stringify(state)), state, "state stays JSON");
  const ids = Object.keys(state.tasks);
  assert.equal(state.count, ids.length);
  let owned = 0;
  for (const key of Object.keys(state.owners)) {
    const e = state.owners[key];
    assert.ok(e.count > 0, "no empty owner entries");
    owned += e.count;
    assert.equal(e.order.filter(([seq, id]) => Object.hasOwn(state.tasks, id) && state.tasks[id].seq === seq).length, e.count);
  }
  assert.equal(owned, state.count);
  // The per-principal index (the requestor maxTasksPerOwner counts) names exactly the tasks whose owner has a principal.
  let byPrincipal = 0;
  for (const key of Object.keys(state.principals)) {
    const e = state.principals[key];
    assert.ok(e.count > 0, "no empty principal entries");
    byPrincipal += e.count;
    assert.equal(e.order.filter(([seq, id]) => Object.hasOwn(state.tasks, id) && state.tasks[id].seq === seq && state.tasks[id].owner.principal !== undefined).length, e.count);
  }
  assert.equal(byPrincipal, ids.filter((id) => state.tasks[id].owner.principal !== undefined).length);
  for (const id of ids) {
    const rec = state.tasks[id];
    assert.equal(rec.taskId, id);
    assert.ok(TASK_STATUSES.includes(rec.status));
    for (const w of rec.waiters ?? []) assert.equal(state.waiting[waiterKey(rec.ownerKey, w.id)], id);
    if (rec.waiters !== undefined) assert.ok(rec.status === "working" || rec.status === "input_required", "only live tasks have waiters");
  }
  for (const wkey of Object.keys(state.waiting)) assert.ok(Object.hasOwn(state.tasks, state.waiting[wkey]));
  const next = nextTaskDeadline(state);
  if (next !== null) {
    const [at, seq, id] = state.deadlines[0];
    assert.ok(Object.hasOwn(state.tasks, id) && state.tasks[id].seq === seq && state.tasks[id].expiresAt === at, "heap top is live");
  }
}

const RESULT_TYPE: Record<string, string> = { create: "CreateTaskResult", "tasks/get": "GetTaskResult", "tasks/list": "ListTasksResult", "tasks/cancel": "CancelTaskResult" };

describe("tasks: errors never cross the boundary", () => {
  it("a corrupted state yields an internal diagnostic, not a throw", () => {
    const state = createTaskTable();
    (state as unknown as { tasks: unknown }).tasks = null;
    const out = stepTasks(state, { type: "create", now: 1, id: 1, taskId: "t", owner: {}, method: "tools/call" }).outputs;
    assert.equal(out.length, 1);
    assert.equal(out[0].type === "diagnostic" && out[0].code, "internal");
  });
});

describe("tasks: property test over random inputs", () => {
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    it(`seed ${seed}: never throws, state stays JSON and consistent, each request answered at most once`, () => {
      const r = rng(seed);
      const era = seed % 2 === 0 ? "extension" : "legacy";
      let state = createTaskTable({ era, maxTasks: 6, maxTasksPerOwner: 4, pageSize: 2, notifications: "all", cooperativeCancel: seed % 4 === 0, maxTtlMs: 400 });
      let now = 1_700_000_000_000;
      let nextId = 1;
      const answers = new Map<RequestId, number>();
      const kinds = new Map<RequestId, string>();
      const waited = new Set<RequestId>();
      const abandoned = new Set<RequestId>();
      const record = (outs: TaskOutput[]): void => {
        for (const o of outs) {
          assert.notEqual(o.type === "diagnostic" ? o.code : "", "internal", JSON.stringify(o));
          if (o.type === "waiting") waited.add(o.id);
          if (o.type === "reply" || o.type === "reply-error") {
            answers.set(o.id, (answers.get(o.id) ?? 0) + 1);
            assert.ok(answers.get(o.id)! <= 1, `request ${String(o.id)} answered twice`);
            if (o.deferred) assert.ok(waited.has(o.id), "only a waiting request gets a deferred answer");
            else assert.ok(!waited.has(o.id), "a waiting request is not answered immediately");
            const type = RESULT_TYPE[kinds.get(o.id) ?? ""];
            if (o.type === "reply" && type !== undefined) {
              const v = validate("2025-11-25", type, o.result);
              assert.ok(v.ok, `${type}: ${JSON.stringify(v.ok ? null : v.issues)} in ${JSON.stringify(o.result)}`);
            }
          }
          if (o.type === "notify" && era === "legacy") assert.ok(validate("2025-11-25", "TaskStatusNotificationParams", o.params).ok);
        }
      };
      for (let i = 0; i < 1500; i++) {
        now += Math.floor(r() * 40);
        const taskId = pick(r, IDS);
        const owner = pick(r, OWNERS);
        const id = nextId++;
        const roll = r();
        let input: TaskInput;
        if (roll < 0.16) {
          if (era === "legacy") kinds.set(id, "create");
          input = { type: "create", now, id, taskId, owner, method: "tools/call", ttl: pick(r, [undefined, 50, 200, 1000]), progressToken: pick(r, [undefined, "p", 1]) };
        } else if (roll < 0.36) {
          input = { type: "update-status", now, taskId, status: pick(r, [...TASK_STATUSES, "bogus" as never]), result: pick(r, RESULTS), error: pick(r, ERRORS), inputRequests: pick(r, [undefined, { ["k" + i]: { method: "roots/list" } }, { k0: { method: "roots/list" } }, "x" as never]), ttl: pick(r, [undefined, undefined, 10, null, -1]) };
        } else if (roll < 0.46) {
          input = { type: "settle", now, taskId, result: pick(r, RESULTS), error: pick(r, ERRORS) };
        } else if (roll < 0.5) {
          input = { type: "input-response", now, taskId, responses: pick(r, [{ k0: {} }, { ["k" + (i - 1)]: {} }, null as never]) };
        } else if (roll < 0.86) {
          const method = pick(r, METHODS);
          const params = pick(r, [{ taskId }, { taskId, inputResponses: { k0: {}, ["k" + (i - 2)]: {} } }, { cursor: pick(r, ["c1", "c2", "bad"]) }, {}, undefined, [] as never]);
          const reqEra = pick(r, [undefined, undefined, "legacy", "extension"] as const);
          // Schema-check the answers given in the 2025-11-25 dialect.
          if ((reqEra ?? era) === "legacy") kinds.set(id, method);
          input = { type: "request", now, id, owner, method, params, era: reqEra };
        } else if (roll < 0.9) {
          const w = [...waited].filter((x) => !answers.has(x) && !abandoned.has(x));
          const target = w.length > 0 ? pick(r, w) : id;
          abandoned.add(target);
          input = { type: "abandon", now, owner: pick(r, OWNERS.slice(0, 5)), id: pick(r, [target, undefined]) };
        } else if (roll < 0.97) {
          input = { type: "tick", now };
        } else {
          input = pick(r, [{ type: "tick", now: NaN }, { type: "nope", now } as never, null as never, { type: "get", now, id: {} as never, owner, taskId }]);
        }
        let outs: TaskOutput[] = [];
        assert.doesNotThrow(() => {
          outs = stepTasks(state, input).outputs;
        });
        record(outs);
        if (i % 50 === 0) checkInvariants(state);
        if (i % 300 === 299) {
          const restored = restoreTasks(snapshotTasks(state));
          assert.ok(restored.ok);
          state = restored.state;
        }
      }
      checkInvariants(state);
      // Finish: every task settles or expires; every waiter not abandoned is answered exactly once.
      for (const id of Object.keys(state.tasks)) record(stepTasks(state, { type: "settle", now, taskId: id, result: { content: [] } }).outputs);
      record(stepTasks(state, { type: "tick", now: now + 1e6 }).outputs);
      checkInvariants(state);
      assert.equal(state.count, 0);
      for (const w of waited) {
        const n = answers.get(w) ?? 0;
        if (!abandoned.has(w)) assert.equal(n, 1, `waiter ${String(w)} answered ${n} times`);
        else assert.ok(n <= 1);
      }
      assert.ok(taskOwnerKey({}) !== undefined);
    });
  }
});
