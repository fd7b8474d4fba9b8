/**
 * A key that may wrap: only after its separators (- _ ,), never inside a word. A hyphen is a break opportunity of
 * its own; `<wbr>` makes one after _ and , (list.css keeps the browser from breaking anywhere else unless a single
 * word is wider than the whole line).
 */
import { Fragment } from 'react';

export function KeyText({ value }: { value: string }) {
  const parts = value.split(/(?<=[_,])/);
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}
