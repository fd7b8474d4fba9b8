/**
 * prom-client hashes the label object on every `inc`/`observe`. On the hot path (every request, every evaluation)
 * Flagpole looks the bound child up in nested Maps instead, keyed by the raw label values, so a request costs a few
 * Map lookups and no string building. Labels fed by request input (namespace, flag) are capped: past `maxKeys`
 * distinct values at one level, new values share the `_other` child, so a client sending random keys cannot grow
 * the metrics without bound.
 */
export const OVERFLOW_LABEL = '_other';

type Node<T> = Map<unknown, Node<T> | T>;

export class ChildCache<T> {
  private readonly root: Node<T> = new Map();

  constructor(
    private readonly make: (values: string[]) => T,
    private readonly maxKeys = 1000,
  ) {}

  get(...values: unknown[]): T {
    let node = this.root;
    const last = values.length - 1;
    // No closures here: this runs for every request and every evaluation.
    for (let i = 0; i < last; i++) node = this.step(node, values, i, false) as Node<T>;
    return this.step(node, values, last, true) as T;
  }

  private step(node: Node<T>, values: unknown[], i: number, leaf: boolean): Node<T> | T {
    let next = node.get(values[i]);
    if (next === undefined) {
      if (node.size >= this.maxKeys) {
        values[i] = OVERFLOW_LABEL;
        next = node.get(OVERFLOW_LABEL);
        if (next !== undefined) return next;
      }
      next = leaf ? this.make(values.map(String)) : new Map();
      node.set(values[i], next);
    }
    return next;
  }
}
