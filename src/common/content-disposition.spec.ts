import { attachmentDisposition } from './content-disposition';

describe('attachmentDisposition', () => {
  it.each([
    ['default.features.yml', 'attachment; filename="default.features.yml"'],
    ['\u{fe48e}.features.json', `attachment; filename="__.features.json"; filename*=UTF-8''%F3%BE%92%8E.features.json`],
    ['a"b\\c.yml', `attachment; filename="a_b_c.yml"; filename*=UTF-8''a%22b%5Cc.yml`],
    ['é\r\n.yml', `attachment; filename="___.yml"; filename*=UTF-8''%C3%A9%0D%0A.yml`],
  ])('%j → %s', (name, header) => {
    expect(attachmentDisposition(name)).toBe(header);
    // Only visible ASCII: what Node accepts in a header.
    expect(header).toMatch(/^[\x20-\x7e]+$/);
  });
});
