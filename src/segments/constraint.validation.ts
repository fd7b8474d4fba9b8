/**
 * Flipt's constraint rules (facts §4.3): operator valid for the type (compared lower-cased), entity-id constraints
 * only on `entityId`, a value unless the operator takes none (then the value is cleared), datetimes normalised,
 * `isoneof` lists as JSON arrays of at most 100 items.
 */
import { InvalidError } from '../common/errors';
import { maxLength, maxText, requireField } from '../common/validation';
import {
  ENTITY_ID_PROPERTY, isOperatorAllowed, LIST_OPERATORS, MAX_LIST_ITEMS, NO_VALUE_OPERATORS, normalizeDateTimeValue,
} from '../core/operators';
import { COMPARISON_TYPE_NAMES, COMPARISON_TYPE_WORDS, ComparisonType } from '../wire';
import type { ConstraintRequest } from './segment.dto';

export interface ConstraintInput {
  type: number;
  property: string;
  operator: string;
  value: string;
  description: string;
}

export function validateConstraint(segmentKey: string, req: ConstraintRequest): ConstraintInput {
  requireField('segmentKey', segmentKey);
  const property = maxLength('property', requireField('property', req.property));
  const rawOperator = maxLength('operator', requireField('operator', req.operator));
  const operator = rawOperator.toLowerCase();
  const type = req.type ?? ComparisonType.UNKNOWN;
  const word = COMPARISON_TYPE_WORDS[type];
  if (!word) throw new InvalidError(`invalid constraint type: "${COMPARISON_TYPE_NAMES[ComparisonType.UNKNOWN]}"`);
  if (!isOperatorAllowed(type, operator)) {
    throw new InvalidError(`constraint operator ${JSON.stringify(rawOperator)} is not valid for type ${word}`);
  }
  if (type === ComparisonType.ENTITY_ID && property !== ENTITY_ID_PROPERTY) {
    throw new InvalidError(`property is ${property} instead of "${ENTITY_ID_PROPERTY}"`);
  }

  const description = maxText('description', req.description);
  if (NO_VALUE_OPERATORS.has(operator)) return { type, property, operator, value: '', description };

  let value = maxText('value', requireField('value', req.value));
  if (type === ComparisonType.DATETIME) {
    const normalized = normalizeDateTimeValue(value);
    if (normalized === null) throw new InvalidError(`parsing datetime from ${JSON.stringify(value)}`);
    value = normalized;
  } else if (LIST_OPERATORS.has(operator) && type !== ComparisonType.BOOLEAN) {
    checkList(property, word, value, type === ComparisonType.NUMBER ? 'number' : 'string');
  }
  return { type, property, operator, value, description };
}

function checkList(property: string, word: string, value: string, itemType: 'string' | 'number'): void {
  let items: unknown;
  try {
    items = JSON.parse(value);
  } catch {
    items = undefined;
  }
  if (!Array.isArray(items) || !items.every((i) => typeof i === itemType)) {
    throw new InvalidError(`invalid value provided for property ${JSON.stringify(property)} of type ${word}`);
  }
  if (items.length > MAX_LIST_ITEMS) {
    throw new InvalidError(`too many values provided for property ${JSON.stringify(property)} of type ${word} (maximum ${MAX_LIST_ITEMS})`);
  }
}

