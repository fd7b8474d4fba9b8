import type { AnchorHTMLAttributes, MouseEvent } from 'react';
import { href, navigate } from './hash-router';

/**
 * A real `<a href="#/...">`: it opens in a new tab, shows its address and works with the keyboard as links do. A plain
 * click goes through navigate(), so that unsaved edits on the page are asked about first.
 */
export function Link({ to, onClick, ...rest }: { to: string } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'>) {
  const click = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    const plain = e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey && !rest.target;
    if (e.defaultPrevented || !plain) return;
    e.preventDefault();
    navigate(to);
  };
  return <a href={href(to)} onClick={click} {...rest} />;
}
