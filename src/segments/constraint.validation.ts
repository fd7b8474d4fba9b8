/**
 * Flipt's constraint rules (facts §4.3): operator valid for the type (compared lower-cased), entity-id constraints
 * only on `entityId`, a value unless the operator takes none (then the value is cleared), datetimes normalised,
 * `isoneof` lists as JSON arrays of at most 100 items.
 */
import { InvalidError } from '../common/errors';
import { maxLength, maxText, requireField } from '../common/validation';
import { isOperatorAllowed, MAX_LIST_ITEMS, NO_VALUE_OPERATORS, normalizeDateTimeValue } from '../core/operators';
import type { ConstraintRequest } from './segment.dto';

const TYPE_WORD: Record<number, string> = { 1: 'string', 2: 'number', 3: 'boolean', 4: 'datetime', 5: 'entityId' };

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
  const type = req.type ?? 0;
  const word = TYPE_WORD[type];
  if (!word) throw new InvalidError('invalid constraint type: "UNKNOWN_COMPARISON_TYPE"');
  if (!isOperatorAllowed(type, operator)) {
    throw new InvalidError(`constraint operator ${JSON.stringify(rawOperator)} is not valid for type ${word}`);
  }
  if (type === 5 && property !== 'entityId') throw new InvalidError(`property is ${property} instead of "entityId"`);

  const description = maxText('description', req.description);
  if (NO_VALUE_OPERATORS.has(operator)) return { type, property, operator, value: '', description };

  let value = maxText('value', requireField('value', req.value));
  if (type === 4) {
    const normalized = normalizeDateTimeValue(value);
    if (normalized === null) throw new InvalidError(`parsing datetime from ${JSON.stringify(value)}`);
    value = normalized;
  } else if ((operator === 'isoneof' || operator === 'isnotoneof') && type !== 3) {
    checkList(property, word, value, type === 2 ? 'number' : 'string');
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

