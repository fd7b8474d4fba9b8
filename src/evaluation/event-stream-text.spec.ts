import { HEARTBEAT, lastEventVersion, positionText, refetchEvent } from './event-stream-text';

describe('event stream text', () => {
  it('an event is OFREP\'s refetchEvaluation message with the version as id', () => {
    expect(refetchEvent('1764193012345', 'tag')).toBe('id: 1764193012345\nevent: message\ndata: {"type":"refetchEvaluation","etag":"tag"}\n\n');
    expect(refetchEvent('17')).toBe('id: 17\nevent: message\ndata: {"type":"refetchEvaluation"}\n\n');
  });

  it('the position is an id without data (no event dispatched) and a heartbeat is a comment', () => {
    expect(positionText('17')).toBe('id: 17\n\n');
    expect(HEARTBEAT.startsWith(':')).toBe(true);
    expect(HEARTBEAT.endsWith('\n\n')).toBe(true);
  });

  it('reads Last-Event-ID only when it is a version', () => {
    expect(lastEventVersion('1764193012345')).toBe('1764193012345');
    expect(lastEventVersion(' 17 ')).toBe('17');
    expect(lastEventVersion(['17', '18'])).toBe('17');
    for (const bad of [undefined, '', '  ', 'abc', '17a', '-1', '1'.repeat(65)]) expect(lastEventVersion(bad)).toBeUndefined();
  });
});
