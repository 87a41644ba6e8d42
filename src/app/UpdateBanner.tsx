/// <reference types="vite-plugin-pwa/react" />
import { useRegisterSW } from 'virtual:pwa-register/react';
import { useT } from '../i18n/i18n';
import './updateBanner.css';

/** How often an open tab asks the server for a new deployment (ms of wall time). */
export const UPDATE_CHECK_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Registers the service worker that precaches the whole site (see vite.config.ts) and, when a new
 * deployment has been downloaded, says so: "A new version is available — Reload". Prompt-style on
 * purpose: the new version waits until the learner presses Reload (or the next visit), so a lesson
 * in progress is never reloaded under them, and the old version's chunks stay cached (no 404 after
 * a redeploy). Renders nothing until an update is waiting. A tab left open checks for a new
 * deployment every {@link UPDATE_CHECK_INTERVAL_MS}; every navigation checks too (the browser's own
 * service-worker update check).
 */
export function UpdateBanner() {
  const t = useT();
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    immediate: true,
    onRegisteredSW(_url, registration) {
      if (registration) setInterval(() => void registration.update().catch(() => undefined), UPDATE_CHECK_INTERVAL_MS);
    },
    // Offline, or a host that does not serve sw.js: the site still works, it is just not precached.
    onRegisterError() {},
  });
  if (!needRefresh) return null;
  return (
    <div className="update-banner" role="status" data-testid="update-banner">
      <span>{t('update.available')}</span>
      <button type="button" onClick={() => void updateServiceWorker(true)} data-testid="update-reload">
        {t('update.reload')}
      </button>
      <button type="button" className="small-btn" onClick={() => setNeedRefresh(false)} data-testid="update-later">
        {t('update.later')}
      </button>
    </div>
  );
}
