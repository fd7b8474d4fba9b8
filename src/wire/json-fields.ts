/**
 * Protobuf JSON field spellings, as Flipt's decoder reads them: a field may be named by its JSON name (camelCase) or
 * its proto name (snake_case); the JSON name wins when both are given, and `null` means absent. The request pipe, the
 * hand-written evaluation parser and the guard's namespace lookup all read fields through here.
 */

export function snakeToCamel(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

export function camelToSnake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** Which of a field's two names the decoder reads it from, or undefined when the field is absent. */
export function jsonFieldName(o: Record<string, unknown>, camel: string, snake: string): string | undefined {
  if (o[camel] !== undefined && o[camel] !== null) return camel;
  if (o[snake] !== undefined && o[snake] !== null) return snake;
  return undefined;
}

/** The field's value, or undefined when it is absent (or null). `snake` defaults to the proto name of `camel`. */
export function jsonField(o: Record<string, unknown>, camel: string, snake = camelToSnake(camel)): unknown {
  const name = jsonFieldName(o, camel, snake);
  return name === undefined ? undefined : o[name];
}
