import { createElement, Suspense, useEffect, useId, useState } from 'react';
import { useStore } from 'zustand';
import { Icon } from '../labs/common/icons';
import { labAddresses } from '../store/labStores';
import { useLang, useT } from '../i18n/i18n';
import { LabBoundary } from './LabBoundary';
import { labText } from './labText';
import { LanguagePicker } from './LanguagePicker';
import { pageOf } from './labPages';
import { LABS, useLabRoute } from './router';
import { useTheme, type ThemeChoice } from './theme';

/** Shown while a lazy lab's chunk loads. */
function Loading({ name }: { name: string }) {
  return (
    <div className="coming-soon" role="status">
      <p>Loading the {name} lab…</p>
    </div>
  );
}

function ComingSoon({ name }: { name: string }) {
  return (
    <div className="coming-soon">
      <h1>{name}</h1>
      <p>This lab is coming soon. The Races lab is ready:</p>
      <p>
        <a href="#/races">Open the Races lab</a>
      </p>
    </div>
  );
}

/**
 * The lab navigation. Each link carries its lab's current address (a nav link returns to the lab as
 * it was left), so this part, not the shell, subscribes to the addresses: a write of the address
 * (after each edit, a drag's end, a paused seek) re-renders these links only, not the lab page below.
 */
function LabNav({ currentId }: { currentId: string | undefined }) {
  const addresses = useStore(labAddresses);
  const t = useT();
  return (
    <nav aria-label={t('nav.label')}>
      <ul>
        {LABS.map((l) => {
          const { name, blurb } = labText(t, l);
          return (
            <li key={l.id}>
              {l.ready ? (
                <a href={addresses[l.id] ?? `#/${l.id}`} data-testid={`nav-${l.id}`} aria-current={currentId === l.id ? 'page' : undefined} title={blurb}>
                  {name}
                </a>
              ) : (
                <span className="nav-soon" title={t('nav.soonTitle', { blurb })}>
                  {name} <span className="soon">{t('nav.soon')}</span>
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** The site shell: header, lab navigation, hash routing and theme. */
export function App() {
  const lab = useLabRoute();
  const [theme, setTheme] = useTheme();
  const themeId = useId();
  const t = useT();
  // The lab pages and the footer are not translated yet (issue 25): marked as English, left to right,
  // so an Arabic shell does not lay English text and the timelines out right to left.
  const untranslated = useLang() === 'en' ? undefined : { lang: 'en', dir: 'ltr' as const };

  // `#/` or no hash → the first lab.
  useEffect(() => {
    if (lab === null) history.replaceState(history.state, '', '#/races');
  }, [lab]);

  const current = LABS.find((l) => l.id === (lab ?? 'races'));
  const [attempts, setAttempts] = useState<Record<string, number>>({});
  // pageOf caches one component per (lab, attempt) in a module map, so its identity is stable across renders.
  const Page = current?.ready ? pageOf(current.id, attempts[current.id] ?? 0) : undefined;

  return (
    <>
      <a className="skip-link" href="#main" onClick={(e) => {
        e.preventDefault();
        document.getElementById('main')?.focus();
      }}>
        {t('shell.skip')}
      </a>
      <header className="site-header">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            <Icon name="clock" size={18} />
          </span>
          <span className="brand-name">{t('shell.brand')}</span>
        </div>
        <LabNav currentId={current?.id} />
        <div className="theme-pick">
          <label htmlFor={themeId}>{t('theme.label')}</label>
          <select id={themeId} value={theme} onChange={(e) => setTheme(e.currentTarget.value as ThemeChoice)}>
            <option value="auto">{t('theme.auto')}</option>
            <option value="light">{t('theme.light')}</option>
            <option value="dark">{t('theme.dark')}</option>
          </select>
        </div>
        <LanguagePicker />
      </header>
      <main id="main" tabIndex={-1} {...untranslated}>
        {current === undefined ? (
          <div className="coming-soon">
            <h1>Not found</h1>
            <p>
              There is no lab at this address. <a href="#/races">Open the Races lab</a>.
            </p>
          </div>
        ) : Page ? (
          <LabBoundary key={`${current.id}#${attempts[current.id] ?? 0}`} name={current.name} onRetry={() => setAttempts((a) => ({ ...a, [current.id]: (a[current.id] ?? 0) + 1 }))}>
            <Suspense fallback={<Loading name={current.name} />}>
              {createElement(Page, { key: current.id })}
            </Suspense>
          </LabBoundary>
        ) : (
          <ComingSoon name={current.name} />
        )}
      </main>
      <footer className="site-footer" {...untranslated}>
        <p>Everything runs in your browser on a virtual clock: same scenario, same trace. Spec revisions 2026-07-28 and 2025-11-25.</p>
      </footer>
    </>
  );
}
