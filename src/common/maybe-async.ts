/**
 * The hot path's "a value now, or a promise of it when it must wait" (a snapshot in memory or being loaded, a token
 * remembered or being verified). Continuing with `andThen` keeps the synchronous case synchronous: no promise, no
 * extra turn of the event loop, which is most of what an evaluation costs besides the evaluation itself. (Not named
 * `then`: a module exporting `then` makes its namespace object a thenable that `await import()` would call.)
 */
export type MaybePromise<T> = T | Promise<T>;

export function andThen<T, R>(value: MaybePromise<T>, next: (value: T) => MaybePromise<R>): MaybePromise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}
