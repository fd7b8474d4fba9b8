/**
 * Constraint and segment matching with Flipt's exact semantics. Everything that depends only on the stored
 * constraint (operator dispatch, the constraint value as number / datetime / list) is worked out once, when the
 * snapshot is compiled, into a `test` closure; evaluation then only reads the context value.
 */
import { ComparisonType, MatchType } from '../wire';
import { compareInstants, parseInstant } from './datetime';
import { unknownConstraintType } from './errors';
import { goTrimEndIndex, goTrimStartIndex, isGoBlank, parseGoBool, parseGoFloat } from './go-parsing';
import type { SourceConstraint, SourceSegment } from './source';

/** Decides a constraint for one value: the context property, or the entity id for ENTITY_ID constraints. */
export type ConstraintTest = (value: string) => boolean;

export interface CompiledConstraint {
  readonly id: string;
  readonly type: number;
  readonly property: string;
  /** Lower-cased. */
  readonly operator: string;
  readonly value: string;
  /** ENTITY_ID constraints test the request's entity id instead of a context property. */
  readonly testsEntityId: boolean;
  readonly test: ConstraintTest;
}

export interface CompiledSegment {
  readonly key: string;
  readonly name: string;
  readonly description: string;
  readonly matchType: number;
  readonly constraints: readonly CompiledConstraint[];
  /** A constraint of unknown type makes every evaluation that reaches this segment fail, as in Flipt. */
  readonly hasUnknownType: boolean;
}

const never: ConstraintTest = () => false;
const blank: ConstraintTest = isGoBlank;
const notBlank: ConstraintTest = (v) => !isGoBlank(v);
const throwUnknownType: ConstraintTest = () => {
  throw unknownConstraintType();
};

/** `strings.HasPrefix(strings.TrimSpace(v), c)` without building the trimmed string. */
function trimmedHasPrefix(v: string, c: string): boolean {
  const start = goTrimStartIndex(v);
  return c.length <= goTrimEndIndex(v) - start && v.startsWith(c, start);
}

/** `strings.HasSuffix(strings.TrimSpace(v), c)` without building the trimmed string. */
function trimmedHasSuffix(v: string, c: string): boolean {
  const end = goTrimEndIndex(v);
  return c.length <= end - goTrimStartIndex(v) && v.endsWith(c, end);
}

function parseJsonArray(text: string): unknown[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  // Go's json.Unmarshal turns `null` into an empty slice without error.
  if (parsed === null) return [];
  return Array.isArray(parsed) ? parsed : null;
}

/** The value of an isoneof/isnotoneof string constraint as Go's json.Unmarshal into []string reads it. */
export function parseStringList(text: string): ReadonlySet<string> | null {
  const items = parseJsonArray(text);
  if (!items) return null;
  const set = new Set<string>();
  for (const item of items) {
    // A null element leaves Go's zero value "" in the slice; "" can never match (empty values fail first).
    if (item === null) set.add('');
    else if (typeof item === 'string') set.add(item);
    else return null;
  }
  return set;
}

/** The value of an isoneof/isnotoneof number constraint as Go's json.Unmarshal into []float64 reads it. */
export function parseNumberList(text: string): ReadonlySet<number> | null {
  const items = parseJsonArray(text);
  if (!items) return null;
  const set = new Set<number>();
  for (const item of items) {
    if (item === null) set.add(0); // Go keeps the zero value for a null element
    else if (typeof item === 'number' && Number.isFinite(item)) set.add(item); // Go rejects out-of-range numbers
    else return null;
  }
  return set;
}

function stringTest(operator: string, c: string): ConstraintTest {
  switch (operator) {
    case 'empty':
      return blank;
    case 'notempty':
      return notBlank;
    case 'eq':
      return (v) => v !== '' && v === c;
    case 'neq':
      return (v) => v !== '' && v !== c;
    case 'prefix':
      return (v) => v !== '' && trimmedHasPrefix(v, c);
    case 'suffix':
      return (v) => v !== '' && trimmedHasSuffix(v, c);
    case 'contains':
      return (v) => v !== '' && v.includes(c);
    case 'notcontains':
      return (v) => v !== '' && !v.includes(c);
    case 'isoneof': {
      const set = parseStringList(c);
      return set ? (v) => v !== '' && set.has(v) : never;
    }
    case 'isnotoneof': {
      const set = parseStringList(c);
      return set ? (v) => v !== '' && !set.has(v) : never;
    }
    default:
      return never;
  }
}

function numberTest(operator: string, c: string): ConstraintTest {
  switch (operator) {
    case 'present':
      return notBlank;
    case 'notpresent':
      return blank;
    case 'isoneof':
    case 'isnotoneof': {
      const set = parseNumberList(c);
      if (!set) return never;
      const wanted = operator === 'isoneof';
      return (v) => {
        const n = parseGoFloat(v);
        return n !== null && set.has(n) === wanted;
      };
    }
  }
  const k = parseGoFloat(c);
  if (k === null) return never;
  switch (operator) {
    case 'eq':
      return (v) => parseGoFloat(v) === k;
    case 'neq':
      return (v) => {
        const n = parseGoFloat(v);
        return n !== null && n !== k;
      };
    case 'lt':
      return (v) => (parseGoFloat(v) ?? NaN) < k;
    case 'lte':
      return (v) => (parseGoFloat(v) ?? NaN) <= k;
    case 'gt':
      return (v) => (parseGoFloat(v) ?? NaN) > k;
    case 'gte':
      return (v) => (parseGoFloat(v) ?? NaN) >= k;
    default:
      return never;
  }
}

function booleanTest(operator: string): ConstraintTest {
  switch (operator) {
    case 'present':
      return notBlank;
    case 'notpresent':
      return blank;
    case 'true':
      return (v) => parseGoBool(v) === true;
    case 'false':
      return (v) => parseGoBool(v) === false;
    default:
      return never;
  }
}

const ORDER_CHECKS: Readonly<Record<string, (order: number) => boolean>> = Object.freeze({
  eq: (o: number) => o === 0,
  neq: (o: number) => o !== 0,
  lt: (o: number) => o < 0,
  lte: (o: number) => o <= 0,
  gt: (o: number) => o > 0,
  gte: (o: number) => o >= 0,
});

function datetimeTest(operator: string, c: string): ConstraintTest {
  switch (operator) {
    case 'present':
      return notBlank;
    case 'notpresent':
      return blank;
  }
  // isoneof / isnotoneof pass validation for datetimes but Flipt never matches them.
  const accept = Object.prototype.hasOwnProperty.call(ORDER_CHECKS, operator) ? ORDER_CHECKS[operator] : undefined;
  const k = parseInstant(c);
  if (!accept || k === null) return never;
  return (v) => {
    if (v === '') return false;
    const d = parseInstant(v);
    return d !== null && accept(compareInstants(d, k));
  };
}

function testFor(type: number, operator: string, value: string): ConstraintTest {
  switch (type) {
    case ComparisonType.STRING:
    case ComparisonType.ENTITY_ID:
      return stringTest(operator, value);
    case ComparisonType.NUMBER:
      return numberTest(operator, value);
    case ComparisonType.BOOLEAN:
      return booleanTest(operator);
    case ComparisonType.DATETIME:
      return datetimeTest(operator, value);
    default:
      return throwUnknownType;
  }
}

function isKnownType(type: number): boolean {
  return type >= ComparisonType.STRING && type <= ComparisonType.ENTITY_ID;
}

export function compileConstraint(src: SourceConstraint): CompiledConstraint {
  const operator = src.operator.toLowerCase();
  return Object.freeze({
    id: src.id,
    type: src.type,
    property: src.property,
    operator,
    value: src.value,
    testsEntityId: src.type === ComparisonType.ENTITY_ID,
    test: testFor(src.type, operator, src.value),
  });
}

export function compileSegment(src: SourceSegment): CompiledSegment {
  const constraints = Object.freeze(src.constraints.map(compileConstraint));
  return Object.freeze({
    key: src.key,
    name: src.name,
    description: src.description,
    matchType: src.matchType,
    constraints,
    hasUnknownType: constraints.some((c) => !isKnownType(c.type)),
  });
}

/** A missing property reads as "", exactly like a Go map lookup; so do non-string values from sloppy callers. */
function contextValue(context: Readonly<Record<string, string>>, property: string): string {
  const v = context[property];
  return typeof v === 'string' ? v : '';
}

/** Whether one constraint holds. Throws EvaluationError (INVALID) for a constraint of unknown type. */
export function matchConstraint(
  constraint: CompiledConstraint,
  context: Readonly<Record<string, string>>,
  entityId: string,
): boolean {
  return constraint.test(constraint.testsEntityId ? entityId : contextValue(context, constraint.property));
}

/**
 * Whether a segment matches: ALL needs every constraint, ANY at least one; a segment without constraints matches
 * either way; an unknown match type never matches. Matchers are pure, so stopping early cannot change the outcome —
 * except for Flipt's error on a constraint of unknown type, which is therefore checked before anything else.
 */
export function matchSegment(
  segment: CompiledSegment,
  context: Readonly<Record<string, string>>,
  entityId: string,
): boolean {
  if (segment.hasUnknownType) throw unknownConstraintType();
  const constraints = segment.constraints;
  if (segment.matchType === MatchType.ALL) {
    for (let i = 0; i < constraints.length; i++) {
      if (!matchConstraint(constraints[i], context, entityId)) return false;
    }
    return true;
  }
  if (segment.matchType === MatchType.ANY) {
    if (constraints.length === 0) return true;
    for (let i = 0; i < constraints.length; i++) {
      if (matchConstraint(constraints[i], context, entityId)) return true;
    }
    return false;
  }
  return false;
}
