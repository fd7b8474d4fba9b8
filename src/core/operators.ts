/**
 * Constraint vocabulary shared by the evaluator and by write-side validation, so that what can be stored and what
 * can be evaluated never drift apart. Operators are compared lower-cased: Flipt lower-cases them before validating
 * and before storing.
 */

export { goTrimSpace, parseGoBool, parseGoFloat } from './go-parsing';
export { normalizeDateTimeValue, parseFliptDateTime } from './datetime';

/** Flipt's numeric ComparisonType values, as stored. */
export const ComparisonType = Object.freeze({
  UNKNOWN: 0,
  STRING: 1,
  NUMBER: 2,
  BOOLEAN: 3,
  DATETIME: 4,
  ENTITY_ID: 5,
} as const);

/** Enum names as the management API writes them (`"type": "STRING_COMPARISON_TYPE"`). */
export const COMPARISON_TYPE_NAMES: Readonly<Record<number, string>> = Object.freeze({
  0: 'UNKNOWN_COMPARISON_TYPE',
  1: 'STRING_COMPARISON_TYPE',
  2: 'NUMBER_COMPARISON_TYPE',
  3: 'BOOLEAN_COMPARISON_TYPE',
  4: 'DATETIME_COMPARISON_TYPE',
  5: 'ENTITY_ID_COMPARISON_TYPE',
});

/** Reverse of COMPARISON_TYPE_NAMES, for reading request bodies. */
export const COMPARISON_TYPES_BY_NAME: Readonly<Record<string, number>> = Object.freeze(
  Object.fromEntries(Object.entries(COMPARISON_TYPE_NAMES).map(([value, name]) => [name, Number(value)])),
);

/** The word Flipt's messages use for a type: `constraint operator "xyz" is not valid for type <label>`. */
export const COMPARISON_TYPE_LABELS: Readonly<Record<number, string>> = Object.freeze({
  1: 'string',
  2: 'number',
  3: 'boolean',
  4: 'datetime',
  5: 'entityId',
});

export const Operator = Object.freeze({
  EQ: 'eq',
  NEQ: 'neq',
  LT: 'lt',
  LTE: 'lte',
  GT: 'gt',
  GTE: 'gte',
  EMPTY: 'empty',
  NOT_EMPTY: 'notempty',
  TRUE: 'true',
  FALSE: 'false',
  PRESENT: 'present',
  NOT_PRESENT: 'notpresent',
  PREFIX: 'prefix',
  SUFFIX: 'suffix',
  IS_ONE_OF: 'isoneof',
  IS_NOT_ONE_OF: 'isnotoneof',
  CONTAINS: 'contains',
  NOT_CONTAINS: 'notcontains',
} as const);

export type OperatorName = (typeof Operator)[keyof typeof Operator];

const STRING_OPERATORS: ReadonlySet<string> = new Set([
  'eq', 'neq', 'empty', 'notempty', 'prefix', 'suffix', 'isoneof', 'isnotoneof', 'contains', 'notcontains',
]);
const NUMBER_OPERATORS: ReadonlySet<string> = new Set([
  'eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'present', 'notpresent', 'isoneof', 'isnotoneof',
]);
const BOOLEAN_OPERATORS: ReadonlySet<string> = new Set(['true', 'false', 'present', 'notpresent']);
const ENTITY_ID_OPERATORS: ReadonlySet<string> = new Set(['eq', 'neq', 'isoneof', 'isnotoneof', 'contains', 'notcontains']);

/** Operators each comparison type accepts (datetime shares number's). UNKNOWN accepts none. */
export const OPERATORS_BY_TYPE: ReadonlyMap<number, ReadonlySet<string>> = new Map([
  [ComparisonType.STRING, STRING_OPERATORS],
  [ComparisonType.NUMBER, NUMBER_OPERATORS],
  [ComparisonType.BOOLEAN, BOOLEAN_OPERATORS],
  [ComparisonType.DATETIME, NUMBER_OPERATORS],
  [ComparisonType.ENTITY_ID, ENTITY_ID_OPERATORS],
]);

/** Operators that ignore the constraint value; Flipt accepts an empty value for them and clears it on save. */
export const NO_VALUE_OPERATORS: ReadonlySet<string> = new Set([
  'true', 'false', 'empty', 'notempty', 'present', 'notpresent',
]);

/** Operators whose value is a JSON array (at most 100 items) rather than a scalar. */
export const LIST_OPERATORS: ReadonlySet<string> = new Set(['isoneof', 'isnotoneof']);

/** Largest number of items Flipt accepts in an isoneof / isnotoneof list. */
export const MAX_LIST_ITEMS = 100;

/** ENTITY_ID constraints must name this property. */
export const ENTITY_ID_PROPERTY = 'entityId';

/** Whether `operator` (any case) is valid for the numeric comparison `type`. */
export function isOperatorAllowed(type: number, operator: string): boolean {
  return OPERATORS_BY_TYPE.get(type)?.has(operator.toLowerCase()) ?? false;
}
