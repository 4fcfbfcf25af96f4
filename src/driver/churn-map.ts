/**
 * A `Map` for entries that come and go all the time (requests in flight, the streams and
 * routes of an HTTP session), renewed now and then so that its garbage dies young.
 *
 * Why renewed. A `Map` is rehashed as it fills with deleted entries, grows or shrinks, and
 * V8 allocates the new hash table in the generation of the old one: once a table has
 * lived through two young-generation collections, every later table of that map is made
 * in the old generation and dies there. A busy connection's tables churn constantly: in an
 * in-memory benchmark at 64 in flight, the two maps of a client-server pair were most of
 * what it promoted, scavenges took 2.5× as long and major collections ran (in the HTTP
 * server, a session's routes were likewise most of what a request promoted). A fresh copy
 * every so often starts the chain young again. The copy costs the live entries, made at
 * most once per as many inserts: O(1) per insert at any size. Iteration order (insertion
 * order) is kept by the copy.
 *
 * Keys compare as a `Map`'s do: keyed by a JSON-RPC id itself, `1` and `"1"` stay two.
 *
 * Why a sentinel entry. The map never holds fewer than one entry (a private key no caller
 * has, first in insertion order, skipped by `size` and the iterators). `Map.prototype.delete`
 * shrinks its table through a runtime call whenever fewer than half as many entries as hash
 * buckets remain, and at the smallest table (two buckets) that is every delete that empties
 * the map: a connection making one request at a time paid an allocating rehash for each
 * request and each handler. With the sentinel a delete never shrinks the smallest table; it
 * is rebuilt only when its deleted slots fill it, once every few inserts.
 */

/** Inserts between renewals, beyond the map's own size. */
const RENEW_AFTER = 1024;

/** The key of the sentinel entry (see the header): a symbol, equal to no key a caller has. */
const SENTINEL: unique symbol = Symbol("ChurnMap sentinel");

export class ChurnMap<K, V> {
  private map = ChurnMap.fresh<K, V>();
  private inserts = 0;

  private static fresh<K, V>(): Map<K, V> {
    return new Map<K, V>([[SENTINEL as K, undefined as V]]);
  }

  /** How many entries the map holds. */
  get size(): number {
    return this.map.size - 1;
  }

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  has(key: K): boolean {
    return this.map.has(key);
  }

  set(key: K, value: V): void {
    if (++this.inserts > RENEW_AFTER + this.map.size) {
      this.inserts = 0;
      this.map = new Map(this.map);
    }
    this.map.set(key, value);
  }

  delete(key: K): void {
    this.map.delete(key);
  }

  /** Empties the map (a fresh one: an iteration in progress goes on over the old entries, as across a renewal). */
  clear(): void {
    this.map = ChurnMap.fresh();
    this.inserts = 0;
  }

  /** The values in insertion order. A renewal during the iteration (a `set`) is not seen by it: do not insert while iterating (copy first). */
  values(): IterableIterator<V> {
    const it = this.map.values();
    it.next(); // the sentinel, always first
    return it;
  }

  /** The entries in insertion order (as {@link ChurnMap.values}: copy before inserting). */
  entries(): IterableIterator<[K, V]> {
    const it = this.map.entries();
    it.next(); // the sentinel
    return it;
  }
}
