import { useEffect, useMemo, useState, use } from 'react';
import { linkCodecReady } from '../../store/labLink';
import { labStoreFor } from '../../store/labStores';
import { createTrafficStore } from '../../store/trafficStore';
import { ErrorBanner } from '../common/ErrorBanner';
import { TrafficContext, useTraffic, useTrafficApi } from './context';
import { ImportTrafficPanel, usePageTranscriptDrop, useTrafficFileImport } from './ImportTrafficPanel';
import { FindingsPanel, MessagesPanel, OptionsPanel, SummaryPanel, TrafficTimeline } from './TrafficPanels';
import { WhatIfPanel } from './WhatIfPanel';
import { createTrafficRunner, type TrafficWorker } from './trafficRunner';
import './traffic.css';

function Banner() {
  const { store } = useTrafficApi();
  const error = useTraffic((s) => s.error);
  return <ErrorBanner error={error} onDismiss={() => store.getState().setError(null)} />;
}

/**
 * The page's address: it has no link parameters, so one opened here (on load, pasted, Back) is read
 * by the store, which reports each parameter as ignored the way the labs do, and `#/traffic` is
 * written back so a reload does not report it again.
 */
function useTrafficAddress() {
  const { store } = useTrafficApi();
  useEffect(() => {
    const follow = () => {
      if (store.getState().followLink(window.location.hash)) history.replaceState(history.state, '', '#/traffic');
    };
    follow();
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, [store]);
}

function TrafficPage() {
  useTrafficAddress();
  usePageTranscriptDrop(useTrafficFileImport());
  return (
    <>
      <div className="intro">
        <h1>Traffic</h1>
        <p className="summary">
          Bring your own MCP traffic: import a transcript (or pick a sample) and the page checks the observed messages against the rules the labs teach and draws every call on the timeline as it was
          recorded. It has no clock to play: open a tools/call as a races scenario to play it step by step and edit it.
        </p>
      </div>
      <Banner />
      <div className="traffic-grid">
        <div className="traffic-main">
          <SummaryPanel />
          <TrafficTimeline />
          <FindingsPanel />
          <MessagesPanel />
        </div>
        <aside className="traffic-side" aria-label="Import, filter, what if and export">
          <ImportTrafficPanel />
          <OptionsPanel />
          <WhatIfPanel />
        </aside>
      </div>
    </>
  );
}

/**
 * The Traffic page (issue 12): import an MCP transcript, see it on the timeline, check it against
 * the labs' rules, open it as a races scenario, export it. One store per tab (kept when the user
 * goes to a lab and back); parsing and checking run in a worker.
 */
export function TrafficLab() {
  use(linkCodecReady); // "Open as a scenario" writes compressed links
  const [store] = useState(() => labStoreFor('traffic', createTrafficStore));
  const runner = useMemo(() => createTrafficRunner(store, () => new Worker(new URL('./traffic.worker.ts', import.meta.url), { type: 'module' }) as unknown as TrafficWorker), [store]);
  useEffect(() => () => runner.dispose(), [runner]);
  const ctx = useMemo(() => ({ store, runner }), [store, runner]);
  return (
    <TrafficContext.Provider value={ctx}>
      <div className="traffic" data-testid="lab-page" data-lab="traffic">
        <TrafficPage />
      </div>
    </TrafficContext.Provider>
  );
}
