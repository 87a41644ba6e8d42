import { createElement, lazy, Suspense, useEffect, useId, useState } from 'react';
import { useStore } from 'zustand';
import { Icon } from '../labs/common/icons';
import { labAddresses } from '../store/labStores';
import { useLang, useT } from '../i18n/i18n';
import { siteText } from '../i18n/areas/site';
import { LabBoundary } from './LabBoundary';
import { labText } from './labText';
import { LanguagePicker } from './LanguagePicker';
import { pageOf } from './labPages';
import { LABS, labOfHash, useLabRoute } from './router';
import { useTheme, type ThemeChoice } from './theme';
import { recallPlace, rememberPlace } from './lastPlace';

/** The Start page: a lazy chunk, so the initial bundle holds only this line. */
const StartPage = lazy(() => import('./start/StartPage').then((m) => ({ default: m.StartPage })));
const isReadyLab = (id: string) => LABS.some((l) => l.id === id && l.ready);

/** Shown while a lazy lab's chunk loads. */
function Loading({ name }: { name: string }) {
  return (
    <div className="coming-soon" role="status">
      <p>Loading the {name} lab…</p>
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

/** The remembered place as the Start page's "continue" link (its lab's name), or null. */
function placeToResume(place: string | null): { href: string; name: string } | null {
  const id = place === null ? null : /^#\/([A-Za-z0-9-]+)/.exec(place)?.[1];
  const l = id ? LABS.find((x) => x.id === id && x.ready) : undefined;
  return l && place ? { href: place, name: l.name } : null;
}

/** The site shell: header, lab navigation, hash routing and theme. */
export function App() {
  const lab = useLabRoute();
  const [theme, setTheme] = useTheme();
  const themeId = useId();
  const t = useT();
  const footerT = siteText.useT();
  // The lab pages are translated area by area (issue 25, `src/i18n/areas/`); one still in English is
  // marked as English, left to right, so an Arabic shell does not lay English text and the timelines
  // out right to left.
  const untranslated = useLang() === 'en' ? undefined : { lang: 'en', dir: 'ltr' as const };

  // `#/` or no hash → where a returning visitor was, else the Start page. Every lab address is remembered.
  const [place] = useState(recallPlace);
  useEffect(() => {
    // location.replace fires hashchange (the route re-reads) and leaves no extra history entry.
    if (lab === null && place !== null) window.location.replace(place);
  }, [lab, place]);
  useEffect(() => {
    const remember = () => rememberPlace(window.location.hash, isReadyLab);
    remember();
    window.addEventListener('hashchange', remember);
    return () => window.removeEventListener('hashchange', remember);
  }, []);

  const start = lab === 'start' || (lab === null && place === null);
  const current = start ? undefined : LABS.find((l) => l.id === (lab ?? labOfHash(place ?? '') ?? 'races'));
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
      {current !== undefined && (
        <a
          className="skip-link"
          href="#main"
          data-testid="skip-to-timeline"
          onClick={(e) => {
            // The first event of the timeline (its handles are sliders); the lab's top when it has none.
            e.preventDefault();
            const handle = document.querySelector<HTMLElement>('#main [role="slider"][data-handle]') ?? document.getElementById('main');
            handle?.focus();
          }}
        >
          {t('shell.skipTimeline')}
        </a>
      )}
      <header className="site-header">
        <a className="brand" href="#/start" aria-current={start ? 'page' : undefined} title={t('shell.startTitle')} data-testid="nav-start">
          <span className="brand-mark" aria-hidden="true">
            <Icon name="clock" size={18} />
          </span>
          <span className="brand-name">{t('shell.brand')}</span>
          <span className="brand-start">{t('shell.start')}</span>
        </a>
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
        {start ? (
          <Suspense fallback={<Loading name="Start" />}>
            <StartPage resume={placeToResume(place)} />
          </Suspense>
        ) : current === undefined ? (
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
          <p className="coming-soon">The {current.name} lab is coming soon.</p>
        )}
      </main>
      <footer className="site-footer">
        <p>{footerT('site.footer', { latest: '2026-07-28', previous: '2025-11-25' })}</p>
      </footer>
    </>
  );
}
