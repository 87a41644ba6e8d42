import { useEffect, useRef } from 'react';

/**
 * Files dropped anywhere on the page go to `onFile` (the first file of the drop); a drag that
 * carries files is accepted (`dragover` default prevented) so the browser does not open the file
 * itself. `onFile` may change between renders: the latest one is called.
 */
export function useWindowFileDrop(onFile: (file: File) => void): void {
  const ref = useRef(onFile);
  useEffect(() => {
    ref.current = onFile;
  });
  useEffect(() => {
    const over = (e: DragEvent) => {
      if (e.dataTransfer?.types.includes('Files')) e.preventDefault();
    };
    const drop = (e: DragEvent) => {
      const file = e.dataTransfer?.files[0];
      if (!file) return;
      e.preventDefault();
      ref.current(file);
    };
    window.addEventListener('dragover', over);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('drop', drop);
    };
  }, []);
}
