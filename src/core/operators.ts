/**
 * Constraint vocabulary shared by the evaluator and by write-side validation, so that what can be stored and what
 * can be evaluated never drift apart. Operators are compared lower-cased: Flipt lower-cases them before validating
 * and before storing.
 */

import { ComparisonType } from '../wire';

export { goTrimSpace, parseGoBool, parseGoFloat } from './go-parsing';
export { normalizeDateTimeValue, parseFliptDateTime } from './datetime';

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
