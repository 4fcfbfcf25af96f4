/**
 * A driver's table of requests in flight by JSON-RPC id (the callers awaiting a response,
 * the handlers running): what a `Map` would be, without the garbage a `Map` makes here.
 *
 * Why not a `Map`. A long-lived `Map` whose size swings (0 → 64 → 0 in every burst of a
 * busy connection) is rehashed at each doubling and halving, and once the map has lived
 * long enough to be in the old generation V8 allocates each new hash table there too: in
 * an in-memory benchmark at 64 in flight the two maps of a client-server pair were two
 * thirds of what survived the young generation, and scavenges took 2.5× as long. An
 * object in dictionary mode grows and shrinks in the young generation.
 *
 * Keys: a number id is its own key (an array index: no string made per request); a
 * string id gets a prefix no number's string form starts with, so `1` and `"1"` stay
 * two requests, as JSON-RPC has them.
 */
import type { RequestId } from "../jsonrpc/types.js";

export class IdTable<T> {
  private entries: { [key: string | number]: T } = Object.create(null);
  /** How many entries the table holds. */
  size = 0;

  get(id: RequestId): T | undefined {
    return this.entries[slot(id)];
  }

  set(id: RequestId, value: T): void {
    const key = slot(id);
    if (this.entries[key] === undefined) this.size++;
    this.entries[key] = value;
  }

  delete(id: RequestId): void {
    const key = slot(id);
    if (this.entries[key] === undefined) return;
    delete this.entries[key];
    this.size--;
  }
}

function slot(id: RequestId): string | number {
  return typeof id === "number" ? id : "s" + id;
}
