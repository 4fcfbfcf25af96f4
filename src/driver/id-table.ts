/**
 * A driver's table of requests in flight by JSON-RPC id (the callers awaiting a response,
 * the handlers running): a `Map` keyed by the id itself, renewed now and then.
 *
 * Why renewed. A `Map` is rehashed as it fills with deleted entries, grows or shrinks, and
 * V8 allocates the new hash table in the generation of the old one: once a table has
 * lived through two young-generation collections, every later table of that map is made
 * in the old generation and dies there. A busy connection's table churns constantly, so
 * in an in-memory benchmark at 64 in flight these tables were most of what a client-server
 * pair promoted: scavenges took 2.5× as long and major collections ran. A fresh copy
 * every so often starts the chain young again. The copy costs the live entries, made at
 * most once per as many inserts (O(1) per request at any number in flight).
 *
 * Keys are the ids as they came: a `Map` tells `1` and `"1"` apart, as JSON-RPC does (no
 * string made per request, as the kernel's `idKey` would).
 */
import type { RequestId } from "../jsonrpc/types.js";

/** Inserts between renewals, beyond the table's own size. */
const RENEW_AFTER = 1024;

export class IdTable<T> {
  private entries = new Map<RequestId, T>();
  private inserts = 0;

  /** How many entries the table holds. */
  get size(): number {
    return this.entries.size;
  }

  get(id: RequestId): T | undefined {
    return this.entries.get(id);
  }

  set(id: RequestId, value: T): void {
    if (++this.inserts > RENEW_AFTER + this.entries.size) {
      this.inserts = 0;
      this.entries = new Map(this.entries);
    }
    this.entries.set(id, value);
  }

  delete(id: RequestId): void {
    this.entries.delete(id);
  }
}
