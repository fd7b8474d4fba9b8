/**
 * The hot path's "a value now, or a promise of it when it must wait" (a snapshot in memory or being loaded, a token
 * remembered or being verified). Continuing with `then` keeps the synchronous case synchronous: no promise, no
 * extra turn of the event loop, which is most of what an evaluation costs besides the evaluation itself.
 */
export type MaybePromise<T> = T | Promise<T>;

export function then<T, R>(value: MaybePromise<T>, next: (value: T) => MaybePromise<R>): MaybePromise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}
