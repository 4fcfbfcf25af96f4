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
 */

/** Inserts between renewals, beyond the map's own size. */
const RENEW_AFTER = 1024;

export class ChurnMap<K, V> {
  private map = new Map<K, V>();
  private inserts = 0;

  /** How many entries the map holds. */
  get size(): number {
    return this.map.size;
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

  clear(): void {
    this.map.clear();
  }

  /** The values in insertion order. A renewal during the iteration (a `set`) is not seen by it: do not insert while iterating (copy first). */
  values(): IterableIterator<V> {
    return this.map.values();
  }

  /** The entries in insertion order (as {@link ChurnMap.values}: copy before inserting). */
  entries(): IterableIterator<[K, V]> {
    return this.map.entries();
  }
}
