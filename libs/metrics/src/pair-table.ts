/* eslint-disable @typescript-eslint/no-non-null-assertion -- hot kernel: indices are bounded by the loops over these arrays; a check per access would cost throughput (npm run bench:metrics) */
/**
 * An open-addressing hash table from a pair of int32 keys to a small id (1, 2, … in order of
 * insertion), reused across segments: {@link PairTable.reset} bumps a stamp instead of clearing,
 * so starting a segment costs nothing. Keys are compared exactly; a hash collision only costs a
 * probe. Used for n-gram ids (prefix id, token → n-gram id; ngram-table.ts) and TER's prefix
 * cache (trie edges: parent node, word → child node).
 */
// Math.imul held in a module constant: slot() runs for every n-gram of every segment, and a
// global lookup inside a vm context (Jest runs every spec in one) is a slow interceptor call
// each time, over ten times slower than the hash itself. Plain Node is unaffected.
const { imul } = Math;

export class PairTable {
  private capacity = 0;
  private mask = 0;
  private keyA = new Int32Array(0);
  private keyB = new Int32Array(0);
  private ids = new Int32Array(0);
  private stamps = new Int32Array(0);
  private stamp = 0;
  /** Number of pairs interned since the last reset. */
  size = 0;

  constructor(initialCapacity = 1024) {
    this.allocate(initialCapacity);
  }

  private allocate(capacity: number): void {
    this.capacity = capacity;
    this.mask = capacity - 1;
    this.keyA = new Int32Array(capacity);
    this.keyB = new Int32Array(capacity);
    this.ids = new Int32Array(capacity);
    this.stamps = new Int32Array(capacity);
    this.stamp = 1;
  }

  /** Forgets every pair. */
  reset(): void {
    this.size = 0;
    this.stamp++;
    if (this.stamp === 0x7fffffff) {
      this.stamps.fill(0);
      this.stamp = 1;
    }
  }

  private slot(a: number, b: number): number {
    let h = imul(a, 0x9e3779b1) ^ b;
    h = imul(h ^ (h >>> 16), 0x85ebca6b);
    return (h ^ (h >>> 13)) & this.mask;
  }

  /** Id of the pair (a, b), or −1 when absent. */
  get(a: number, b: number): number {
    const { keyA, keyB, stamps, stamp, mask } = this;
    let s = this.slot(a, b);
    while (stamps[s] === stamp) {
      if (keyA[s] === a && keyB[s] === b) return this.ids[s]!;
      s = (s + 1) & mask;
    }
    return -1;
  }

  /** Id of the pair (a, b), adding it (id `size + 1`) when absent. */
  intern(a: number, b: number): number {
    if (2 * (this.size + 1) > this.capacity) this.grow();
    const { keyA, keyB, stamps, stamp, mask } = this;
    let s = this.slot(a, b);
    while (stamps[s] === stamp) {
      if (keyA[s] === a && keyB[s] === b) return this.ids[s]!;
      s = (s + 1) & mask;
    }
    stamps[s] = stamp;
    keyA[s] = a;
    keyB[s] = b;
    this.size++;
    this.ids[s] = this.size;
    return this.size;
  }

  /** Adds the pair (a, b), which must be absent, and returns its new id. */
  add(a: number, b: number): number {
    if (2 * (this.size + 1) > this.capacity) this.grow();
    let s = this.slot(a, b);
    while (this.stamps[s] === this.stamp) s = (s + 1) & this.mask;
    this.stamps[s] = this.stamp;
    this.keyA[s] = a;
    this.keyB[s] = b;
    this.size++;
    this.ids[s] = this.size;
    return this.size;
  }

  private grow(): void {
    const { keyA, keyB, ids, stamps, stamp } = this;
    this.allocate(this.capacity * 2);
    for (let s = 0; s < stamps.length; s++) {
      if (stamps[s] !== stamp) continue;
      let t = this.slot(keyA[s]!, keyB[s]!);
      while (this.stamps[t] === this.stamp) t = (t + 1) & this.mask;
      this.stamps[t] = this.stamp;
      this.keyA[t] = keyA[s]!;
      this.keyB[t] = keyB[s]!;
      this.ids[t] = ids[s]!;
    }
  }
}
