/**
 * Where a server keeps its tasks: a storage interface, an in-memory default, and the
 * plain-JSON snapshot that moves a task table between processes.
 *
 * Spec: 2025-11-25 `basic/utilities/tasks` ("Task Isolation and Access Control": tasks
 * are bound to their owner; "Resource Management": expired tasks are deleted) and
 * SEP-2663 "Task Creation" ("A server MUST NOT return CreateTaskResult until the task is
 * durably created").
 *
 * Theory of operation. The kernel's task table (`src/tasks/`) is the source of truth in
 * the process; a {@link TaskStore} is written through after every step that changed a
 * task, keyed by the owner's isolation key, so an adapter can persist records one by one
 * (a database row per task). `put` of a new task is awaited before its
 * `CreateTaskResult` goes out: that is the durability point the extension asks for. A
 * server restarted from {@link MemoryTaskStore.records} (or any store's records) or from
 * a table snapshot carries on where the old one stopped, for the owners that can still
 * reach it: a 2025-11-25 task belongs to the session it was created on too, and a restart
 * ends every session (the client's next is another), so only the tasks owned by the
 * principal alone (the extension's, and a stateless handler's) are served again.
 */
import type { TaskRecord } from "../tasks/types.js";

/**
 * Persistence of task records, per owner (the isolation key of `tasks/records.ts`). Methods
 * may be async. The runtime only writes (`put`, `delete`): it answers from its own table,
 * and reads records back only when a new runtime is given them to `restore`. `get` and
 * `list` are for that, and for the application's own tools.
 */
export interface TaskStore {
  /** The record of `taskId` if `owner` holds it. */
  get(owner: string, taskId: string): TaskRecord | undefined | Promise<TaskRecord | undefined>;
  /** Creates or replaces a record. */
  put(owner: string, record: TaskRecord): void | Promise<void>;
  /** Deletes a record (an expired task). Deleting what is not there is not an error. */
  delete(owner: string, taskId: string): void | Promise<void>;
  /** Every record `owner` holds, in creation order. */
  list(owner: string): TaskRecord[] | Promise<TaskRecord[]>;
}

/** The default store: records in memory, copied in and out so callers cannot alias the kernel's state. */
export class MemoryTaskStore implements TaskStore {
  private readonly byOwner = new Map<string, Map<string, TaskRecord>>();

  get(owner: string, taskId: string): TaskRecord | undefined {
    const r = this.byOwner.get(owner)?.get(taskId);
    return r === undefined ? undefined : structuredClone(r);
  }

  put(owner: string, record: TaskRecord): void {
    let m = this.byOwner.get(owner);
    if (m === undefined) this.byOwner.set(owner, (m = new Map()));
    m.set(record.taskId, structuredClone(record));
  }

  delete(owner: string, taskId: string): void {
    const m = this.byOwner.get(owner);
    if (m === undefined) return;
    m.delete(taskId);
    if (m.size === 0) this.byOwner.delete(owner);
  }

  list(owner: string): TaskRecord[] {
    const m = this.byOwner.get(owner);
    return m === undefined ? [] : [...m.values()].sort((a, b) => a.seq - b.seq).map((r) => structuredClone(r));
  }

  /** Every record of every owner, in creation order: what a restarted server is restored from. */
  records(): TaskRecord[] {
    const all: TaskRecord[] = [];
    for (const m of this.byOwner.values()) for (const r of m.values()) all.push(structuredClone(r));
    return all.sort((a, b) => a.seq - b.seq);
  }

  /** How many records are held. */
  get size(): number {
    let n = 0;
    for (const m of this.byOwner.values()) n += m.size;
    return n;
  }
}
