/**
 * A map that keeps its `max` most recently used entries: a Map in insertion order, an entry moved
 * to the end when it is read or written, the first one dropped when it is full. Few lines, no
 * dependency, and the same in the core, the page and Node (a cache library would add nothing here).
 */
export class Lru<K, V> {
  readonly #map = new Map<K, V>();
  readonly #max: number;

  constructor(max: number) {
    if (!Number.isInteger(max) || max < 1) throw new Error(`Lru: max must be a whole number ≥ 1, got ${max}`);
    this.#max = max;
  }

  get size(): number {
    return this.#map.size;
  }

  /** The value for `key` (now the most recently used), or undefined. */
  get(key: K): V | undefined {
    if (!this.#map.has(key)) return undefined;
    const v = this.#map.get(key)!;
    this.#map.delete(key);
    this.#map.set(key, v);
    return v;
  }

  /** Stores `value` as the most recently used, dropping the least recently used entry when full. */
  set(key: K, value: V): void {
    this.#map.delete(key);
    this.#map.set(key, value);
    if (this.#map.size > this.#max) this.#map.delete(this.#map.keys().next().value!);
  }

  /** Removes `key` if it holds `value` (a later entry for the key stays). */
  deleteIf(key: K, value: V): void {
    if (this.#map.get(key) === value) this.#map.delete(key);
  }
}
