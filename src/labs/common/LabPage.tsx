import { useCallback, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { LabStore } from '../../store/labStore';
import { importScenarioFile, usePageFileDrop } from './importFile';
import { LabContext } from './LabContext';
import { useHashSync } from './useHashSync';
import { usePlaybackKeys, usePlayLoop } from './usePlaybackKeys';

/**
 * The frame of every lab page: provides the store (`LabContext`), keeps the address in step
 * (`useHashSync`), runs the play loop, the lab keyboard (Space, ←/→, Home/End, undo/redo from
 * anywhere except a text field being typed in) and file drops anywhere on the page. Each lab
 * composes its panels inside.
 */
export function LabPage<T, X>({ store, className, children }: { store: LabStore<T, X>; className: string; children: ReactNode }) {
  useHashSync(store);
  const playing = useStore(store, (s) => s.playing);
  const tick = useCallback((realMs: number) => store.getState().tick(realMs), [store]);
  const isPlaying = useCallback(() => store.getState().playing, [store]);
  usePlayLoop(playing, tick, isPlaying);
  const actions = useCallback(() => store.getState(), [store]);
  usePlaybackKeys(actions);
  const importText = useCallback((text: string, source: string) => store.getState().importText(text, source), [store]);
  const setError = useCallback((e: { title: string; errors: string[] }) => store.getState().setError(e), [store]);
  usePageFileDrop(importText, setError);
  return (
    <LabContext.Provider value={store}>
      <div className={className} data-testid="lab-page" data-lab={store.getState().lab}>
        {children}
      </div>
    </LabContext.Provider>
  );
}

export { importScenarioFile };
