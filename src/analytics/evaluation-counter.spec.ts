import { EvaluationCounter, type CountRow } from './evaluation-counter';

const byIdentity = (rows: CountRow[]) =>
  [...rows].sort((a, b) => a.minute - b.minute || a.flagKey.localeCompare(b.flagKey) || a.variantKey.localeCompare(b.variantKey) || a.reason - b.reason);

describe('EvaluationCounter', () => {
  it('sums per minute, namespace, flag, variant and reason, and empties on take', () => {
    const counter = new EvaluationCounter(1000, 100);
    for (let i = 0; i < 3; i++) counter.count('ns', 'f', 'a', 2);
    counter.count('ns', 'f', 'a', 3);
    counter.count('ns', 'f', 'b', 2);
    counter.count('other', 'f', 'a', 2);
    counter.setMinute(101);
    counter.count('ns', 'f', 'a', 2);
    expect(byIdentity(counter.take())).toEqual([
      { namespaceKey: 'ns', flagKey: 'f', minute: 100, variantKey: 'a', reason: 2, count: 3 },
      { namespaceKey: 'other', flagKey: 'f', minute: 100, variantKey: 'a', reason: 2, count: 1 },
      { namespaceKey: 'ns', flagKey: 'f', minute: 100, variantKey: 'a', reason: 3, count: 1 },
      { namespaceKey: 'ns', flagKey: 'f', minute: 100, variantKey: 'b', reason: 2, count: 1 },
      { namespaceKey: 'ns', flagKey: 'f', minute: 101, variantKey: 'a', reason: 2, count: 1 },
    ]);
    expect(counter.take()).toEqual([]);
    expect(counter.size).toBe(0);
    // Still minute 101 after a take.
    counter.count('ns', 'f', 'a', 1);
    expect(counter.take()).toEqual([{ namespaceKey: 'ns', flagKey: 'f', minute: 101, variantKey: 'a', reason: 1, count: 1 }]);
  });

  it('adds restored rows to what was counted since, each combination once', () => {
    const counter = new EvaluationCounter(1000, 100);
    counter.count('ns', 'f', 'a', 2);
    const rows = counter.take();
    counter.count('ns', 'f', 'a', 2);
    counter.restore(rows);
    counter.count('ns', 'f', 'a', 2);
    expect(counter.take()).toEqual([{ namespaceKey: 'ns', flagKey: 'f', minute: 100, variantKey: 'a', reason: 2, count: 3 }]);
  });

  it('holds at most maxEntries rows: new combinations are dropped, and a restore drops the oldest minutes', () => {
    const counter = new EvaluationCounter(2, 100);
    counter.count('ns', 'f', 'a', 2);
    counter.count('ns', 'f', 'b', 2);
    counter.count('ns', 'f', 'c', 2);
    counter.count('ns', 'f', 'a', 2);
    expect(counter.size).toBe(2);
    expect(counter.takeDropped()).toBe(1);
    const old = counter.take();
    counter.setMinute(105);
    counter.count('ns', 'f', 'z', 2);
    counter.restore([...old, { namespaceKey: 'ns', flagKey: 'f', minute: 104, variantKey: 'y', reason: 2, count: 5 }]);
    // Room for one more row: the newest restored minute (104) stays, minute 100's three counts go.
    expect(byIdentity(counter.take())).toEqual([
      { namespaceKey: 'ns', flagKey: 'f', minute: 104, variantKey: 'y', reason: 2, count: 5 },
      { namespaceKey: 'ns', flagKey: 'f', minute: 105, variantKey: 'z', reason: 2, count: 1 },
    ]);
    expect(counter.takeDropped()).toBe(3);
  });
});
