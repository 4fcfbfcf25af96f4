/**
 * A hostile peer's body: a long stream of 64 KiB chunks that counts what its reader pulled
 * and whether it cancelled. Finite (`total` bytes), so that a reader without a bound ends
 * too and its test fails instead of hanging.
 */
export class LongBody {
  static readonly CHUNK_BYTES = 64 * 1024;
  /** Bytes handed to readers so far, over every stream made. */
  pulled = 0;
  /** Readers that cancelled. */
  cancelled = 0;

  constructor(private readonly total: number) {}

  /** A new stream (its bytes count toward the same {@link LongBody.pulled}). */
  stream(): ReadableStream<Uint8Array> {
    const chunk = new Uint8Array(LongBody.CHUNK_BYTES).fill(0x20);
    return new ReadableStream<Uint8Array>({
      pull: (c) => {
        if (this.pulled >= this.total) return c.close();
        this.pulled += chunk.length;
        c.enqueue(chunk);
      },
      cancel: () => {
        this.cancelled++;
      },
    });
  }
}
