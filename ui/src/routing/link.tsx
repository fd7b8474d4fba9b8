import type { AnchorHTMLAttributes } from 'react';
import { href } from './hash-router';

/** A real `<a href="#/...">`: it opens in a new tab, shows its address and works with the keyboard as links do. */
export function Link({ to, ...rest }: { to: string } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'>) {
  return <a href={href(to)} {...rest} />;
}
