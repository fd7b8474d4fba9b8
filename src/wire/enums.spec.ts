import {
  COMPARISON_TYPE_NAMES,
  COMPARISON_TYPE_WORDS,
  COMPARISON_TYPES_BY_NAME,
  CONSTRAINT_COMPARISON_TYPE_NAMES,
  FLAG_TYPES_BY_NAME,
  LEGACY_REASON_NAMES,
  MATCH_TYPES_BY_NAME,
  REASON_NAMES,
  ROLLOUT_TYPE_NAMES,
  SEGMENT_MATCH_TYPE_NAMES,
  SEGMENT_OPERATORS_BY_NAME,
} from '.';

describe('Flipt enum names (facts §4)', () => {
  it.each<[number, string, string | undefined, string]>([
    [0, 'UNKNOWN_COMPARISON_TYPE', undefined, 'UNKNOWN_CONSTRAINT_COMPARISON_TYPE'],
    [1, 'STRING_COMPARISON_TYPE', 'string', 'STRING_CONSTRAINT_COMPARISON_TYPE'],
    [2, 'NUMBER_COMPARISON_TYPE', 'number', 'NUMBER_CONSTRAINT_COMPARISON_TYPE'],
    [3, 'BOOLEAN_COMPARISON_TYPE', 'boolean', 'BOOLEAN_CONSTRAINT_COMPARISON_TYPE'],
    [4, 'DATETIME_COMPARISON_TYPE', 'datetime', 'DATETIME_CONSTRAINT_COMPARISON_TYPE'],
    [5, 'ENTITY_ID_COMPARISON_TYPE', 'entityId', 'ENTITY_ID_CONSTRAINT_COMPARISON_TYPE'],
  ])('comparison type %p is named %j both ways, label %j, %j in snapshots', (value, name, word, snapshotName) => {
    expect(COMPARISON_TYPE_NAMES[value]).toBe(name);
    expect(COMPARISON_TYPES_BY_NAME[name]).toBe(value);
    expect(COMPARISON_TYPE_WORDS[value]).toBe(word);
    expect(CONSTRAINT_COMPARISON_TYPE_NAMES[value]).toBe(snapshotName);
  });

  // Order matters: it is the order of Swagger's enum lists and of "must be one of ..." messages.
  it.each<[string, Readonly<Record<string, number>>, Record<string, number>]>([
    ['flag type', FLAG_TYPES_BY_NAME, { VARIANT_FLAG_TYPE: 0, BOOLEAN_FLAG_TYPE: 1 }],
    ['match type', MATCH_TYPES_BY_NAME, { ALL_MATCH_TYPE: 0, ANY_MATCH_TYPE: 1 }],
    ['segment operator', SEGMENT_OPERATORS_BY_NAME, { OR_SEGMENT_OPERATOR: 0, AND_SEGMENT_OPERATOR: 1 }],
  ])('%s names read back to their numbers, in number order', (_, byName, expected) => {
    expect(Object.entries(byName)).toEqual(Object.entries(expected));
  });

  it('names rollout types, snapshot match types and reasons', () => {
    expect(Object.values(ROLLOUT_TYPE_NAMES)).toEqual(['UNKNOWN_ROLLOUT_TYPE', 'SEGMENT_ROLLOUT_TYPE', 'THRESHOLD_ROLLOUT_TYPE']);
    expect(Object.values(SEGMENT_MATCH_TYPE_NAMES)).toEqual(['ALL_SEGMENT_MATCH_TYPE', 'ANY_SEGMENT_MATCH_TYPE']);
    expect(LEGACY_REASON_NAMES).toEqual([
      ...Object.values(REASON_NAMES), 'FLAG_NOT_FOUND_EVALUATION_REASON', 'ERROR_EVALUATION_REASON',
    ]);
  });
});
