/**
 * prom-client hashes the label object on every `inc`/`observe`. On the hot path (every request, every evaluation)
 * Flagpole looks the bound child up in nested Maps instead, keyed by the raw label values, so a request costs a few
 * Map lookups and no string building. The cache holds at most `maxChildren` children in all (not per level: a cap
 * per level still allows its product): past it, new combinations share one child whose every label is `_other`, so
 * neither the lookup tree nor the metrics grow without bound whatever clients send.
 */
export const OVERFLOW_LABEL = '_other';

type Node<T> = Map<unknown, Node<T> | T>;

export class ChildCache<T> {
  private readonly root: Node<T> = new Map();
  private size = 0;
  private overflow: T | undefined;

  constructor(
    private readonly make: (values: string[]) => T,
    private readonly maxChildren = 10_000,
  ) {}

  get(...values: unknown[]): T {
    let node = this.root;
    const last = values.length - 1;
    // No closures here: this runs for every request and every evaluation.
    for (let i = 0; i < last; i++) {
      const next = node.get(values[i]);
      if (next === undefined) return this.add(values);
      node = next as Node<T>;
    }
    const leaf = node.get(values[last]);
    return leaf === undefined ? this.add(values) : (leaf as T);
  }

  /** Once per new combination (or per request past the cap, which then only returns the shared child). */
  private add(values: unknown[]): T {
    if (this.size >= this.maxChildren) return (this.overflow ??= this.make(values.map(() => OVERFLOW_LABEL)));
    let node = this.root;
    const last = values.length - 1;
    for (let i = 0; i < last; i++) {
      let next = node.get(values[i]) as Node<T> | undefined;
      if (next === undefined) node.set(values[i], (next = new Map()));
      node = next;
    }
    const leaf = this.make(values.map(String));
    node.set(values[last], leaf);
    this.size++;
    return leaf;
  }
}
