/**
 * Uploads in flight per key (an identity, an address): a request takes a slot for each of its
 * keys or none, and gives them back when its connection is done. In process, like the rate limits.
 */
export class UploadSlots {
  private readonly inFlight = new Map<string, number>();

  /** Takes one slot for every key, each with its own limit; null (nothing taken) when one is full. */
  acquire(keys: readonly { key: string; limit: number }[]): (() => void) | null {
    if (keys.some(({ key, limit }) => (this.inFlight.get(key) ?? 0) >= limit)) return null;
    for (const { key } of keys) this.inFlight.set(key, (this.inFlight.get(key) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      for (const { key } of keys) {
        const n = (this.inFlight.get(key) ?? 1) - 1;
        if (n <= 0) this.inFlight.delete(key);
        else this.inFlight.set(key, n);
      }
    };
  }

  count(key: string): number {
    return this.inFlight.get(key) ?? 0;
  }
}
