import { lazy, StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { initialLang, setLang } from '../i18n/i18n';
import './app.css';

// The service worker's registration and its update banner (which renders nothing until a new
// deployment waits) are not part of the first paint: a lazy chunk fetched once the page is up.
const UpdateBanner = lazy(() => import('./UpdateBanner').then((m) => ({ default: m.UpdateBanner })));

// English renders at once; another language fetches its catalogue chunk and re-renders the shell.
void setLang(initialLang());

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
    <Suspense fallback={null}>
      <UpdateBanner />
    </Suspense>
  </StrictMode>,
);
