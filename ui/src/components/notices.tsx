/**
 * Short confirmations ("Flag saved") in a polite live region; errors are shown where they happened instead. They show
 * at the bottom centre for 2.5 s and let every click through (styles/forms.css): a toast never stands between the
 * pointer and a control, and an open dialog stays above it.
 */
import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';

type Notify = (text: string) => void;

const NOTICE_LIFE_MS = 2500;

const NoticeContext = createContext<Notify>(() => undefined);

export const useNotify = (): Notify => useContext(NoticeContext);

export function NoticeProvider({ children }: { children: ReactNode }) {
  const [notices, setNotices] = useState<Array<{ id: number; text: string }>>([]);
  const notify = useCallback<Notify>((text) => {
    const id = Date.now() + Math.random();
    setNotices((n) => [...n.slice(-1), { id, text }]);
    setTimeout(() => setNotices((n) => n.filter((x) => x.id !== id)), NOTICE_LIFE_MS);
  }, []);
  return (
    <NoticeContext.Provider value={notify}>
      {children}
      <div className="notices" role="status" aria-live="polite">
        {notices.map((n) => (
          <div key={n.id} className="notice">
            {n.text}
          </div>
        ))}
      </div>
    </NoticeContext.Provider>
  );
}
