/**
 * A save's result where the person is looking: beside the button that saved
 * (a polite status when it worked, an alert in the reader's words when it did
 * not) of a save that hooks/useSaver.ts runs and keeps.
 */
import { useEffect, useRef } from 'react';
import type { Saver } from '../../hooks/useSaver';
import { ErrorText } from './ErrorText';

/** Put it right after the button, inside the form's actions row (scrolled into view when a result shows: a refusal may wrap below the button). */
export function SaveResult({ saver }: { saver: Pick<Saver, 'saved' | 'error'> }) {
  const status = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    if (saver.saved || saver.error) status.current?.parentElement?.scrollIntoView?.({ block: 'nearest' });
  }, [saver.saved, saver.error]);
  return (
    <>
      <span role="status" className="saved" ref={status}>
        {saver.saved}
      </span>
      <ErrorText error={saver.error} />
    </>
  );
}
