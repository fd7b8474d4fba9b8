/** The UI: sign-in state first, then the shell and the page the hash names. */
import { QueryClientProvider } from '@tanstack/react-query';
import { queryClient } from './api/query-client';
import { Loading } from './components/loading';
import { NoticeProvider } from './components/notices';
import { Shell } from './layout/shell';
import { LoginPage } from './pages/login-page';
import { Routes } from './routes';
import { NamespacesProvider } from './session/namespaces';
import { SessionProvider, useSession } from './session/session';
import { useAppliedTheme, useTheme } from './session/theme';

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <NoticeProvider>
        <SessionProvider>
          <Gate />
        </SessionProvider>
      </NoticeProvider>
    </QueryClientProvider>
  );
}

function Gate() {
  const { state, retry } = useSession();
  useAppliedTheme(useTheme(state.status === 'ready' ? state.ui.defaultTheme : undefined));

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
