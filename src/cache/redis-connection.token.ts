/**
 * The DI token of the Redis connection, in a file of its own: a class token would make every file that injects the
 * connection load the Redis client at start-up, which an instance without Redis never uses (cache.module.ts).
 */
export const REDIS_CONNECTION = Symbol('REDIS_CONNECTION');
