import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { LeavePrompt } from './components/leave-prompt';
import './styles/base.css';
import './styles/layout.css';
import './styles/components.css';
import './styles/history.css';
import './styles/console.css';
import './styles/combobox.css';
import './styles/palette.css';
import './styles/forms.css';
import './styles/ranked.css';
import './styles/list.css';
import './styles/schedules.css';
import './styles/values.css';
import './styles/tokens.css';
import './styles/analytics.css';
import './styles/lifecycle.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
    {/* Outside the app's providers: it asks before leaving unsaved edits, whatever page holds them. */}
    <LeavePrompt />
  </StrictMode>,
);
