/** The UI: sign-in state first, then the shell and the page the hash names. */
import { useEffect } from 'react';
import type { UiSettings } from './api/types';
import { Loading } from './components/loading';
import { NoticeProvider } from './components/notices';
import { Shell } from './layout/shell';
import { LoginPage } from './pages/login-page';
import { Routes } from './routes';
import { NamespacesProvider } from './session/namespaces';
import { SessionProvider, useSession } from './session/session';

export function App() {
  return (
    <NoticeProvider>
      <SessionProvider>
        <Gate />
      </SessionProvider>
    </NoticeProvider>
  );
}

function Gate() {
  const { state, retry } = useSession();
  useTheme(state.status === 'ready' ? state.ui.defaultTheme : undefined);

  switch (state.status) {
    case 'loading':
      return (
        <main className="centered" id="main">
          <Loading what="Connecting to Flagpole" />
        </main>
      );
    case 'unreachable':
      return (
        <main className="centered" id="main">
          <div className="login-card">
            <h1>Flagpole is not answering</h1>
            <p role="alert">{state.message}</p>
            <button type="button" className="primary" onClick={retry}>
              Try again
            </button>
          </div>
        </main>
      );
    case 'login':
      return <LoginPage methods={state.methods} notice={state.notice} />;
    case 'ready':
      return (
        <NamespacesProvider>
          <Shell>
            <Routes />
          </Shell>
        </NamespacesProvider>
      );
  }
}

/** `dark` or `light` as configured; `system` (or nothing configured, as on the login page) follows the OS, live. */
function useTheme(theme: UiSettings['defaultTheme']) {
  useEffect(() => {
    const media = window.matchMedia('(prefers-color-scheme: dark)');
    const apply = () => {
      document.documentElement.dataset.theme = theme === 'dark' || theme === 'light' ? theme : media.matches ? 'dark' : 'light';
    };
    apply();
    media.addEventListener('change', apply);
    return () => media.removeEventListener('change', apply);
  }, [theme]);
}
