import { AnyField, AnySchema, Condition, holds, when } from './config.fields';
import { CONFIG_SCHEMA } from './config.schema';

/** Every condition in the schema (a default's `defaultWhen`, a section's `viewIf`), with where it is written. */
function conditions(schema: AnySchema, at: string[] = []): Array<{ at: string; condition: Condition }> {
  return Object.entries(schema).flatMap(([property, field]) => {
    const here = [...at, property];
    const own = [
      ...('defaultWhen' in field && field.defaultWhen ? [field.defaultWhen] : []),
      ...(field.kind === 'section' && field.viewIf ? [field.viewIf] : []),
    ].map((condition) => ({ at: here.join('.'), condition }));
    if (field.kind === 'section') return [...own, ...conditions(field.fields, here)];
    if (field.kind === 'map' || field.kind === 'objectList') return [...own, ...conditions(field.of, [...here, '*'])];
    return own;
  });
}

function fieldAt(path: string): AnyField | undefined {
  let schema: AnySchema | undefined = CONFIG_SCHEMA as unknown as AnySchema;
  let field: AnyField | undefined;
  for (const property of path.split('.')) {
    field = schema?.[property];
    schema = field?.kind === 'section' ? field.fields : undefined;
  }
  return field;
}

describe('the configuration schema', () => {
  const all = conditions(CONFIG_SCHEMA as unknown as AnySchema);

  it('has conditions (the walk finds them)', () => {
    expect(all.length).toBeGreaterThanOrEqual(19);
  });

  it.each(all.map(({ at, condition }) => [at, condition.path, condition.equals ?? true] as const))(
    '%s depends on %s = %s, a key of the schema of that type',
    (_at, path, equals) => {
      const field = fieldAt(path);
      if (equals === true) expect(field?.kind).toBe('bool');
      else {
        expect(field?.kind).toBe('enum');
        expect(field?.kind === 'enum' && field.values).toContain(equals);
      }
    },
  );

  it('evaluates a condition on loaded values', () => {
    const config = { storage: { type: 'git' }, authorization: { required: true }, metrics: {} };
    expect(holds(when('storage.type', 'git'), config)).toBe(true);
    expect(holds(when('storage.type', 'local'), config)).toBe(false);
    expect(holds(when('authorization.required'), config)).toBe(true);
    expect(holds(when('metrics.exporter', 'otlp'), config)).toBe(false);
    expect(holds(when('no.such.key'), config)).toBe(false);
  });
});
