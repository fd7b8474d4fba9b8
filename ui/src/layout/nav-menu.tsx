/**
 * The navigation's fold on a narrow window (issue 43): a Menu button in the top bar shows or hides the navigation,
 * with the namespace switcher and sign-out, so that a phone's first screen is the page rather than the menu. The
 * folding itself is layout.css's, under 760 px, from the shell's `data-menu`; on a wide window the button is not
 * shown and the navigation always is. Escape folds it and gives focus back to the button (not from inside another
 * dialog, whose Escape is its own); another page folds it too, as the shell moves focus to that page.
 */
import { useEffect, useRef, useState, type RefObject } from 'react';
import { useRoute } from '../routing/hash-router';

/** The navigation's id, which the button names as what it shows and hides. */
export const NAV_ID = 'main-navigation';

export interface NavMenu {
  open: boolean;
  toggle(): void;
  button: RefObject<HTMLButtonElement | null>;
}

export function useNavMenu(): NavMenu {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const page = useRoute().segments.join('/');
  useEffect(() => setOpen(false), [page]);

  useEffect(() => {
    if (!open) return;
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented || document.querySelector('dialog[open]')) return;
      setOpen(false);
      button.current?.focus();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [open]);

  return { open, toggle: () => setOpen((o) => !o), button };
}

export function NavMenuButton({ menu }: { menu: NavMenu }) {
  return (
    <button ref={menu.button} type="button" className="menu-button" aria-expanded={menu.open} aria-controls={NAV_ID} onClick={menu.toggle}>
      <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true">
        <path d="M3 5h14M3 10h14M3 15h14" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      </svg>
      Menu
    </button>
  );
}
