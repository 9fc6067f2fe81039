/**
 * Under the widget's colour in the channel form: a warning when white text on
 * the picked colour fails WCAG 2.1 AA's 4.5:1 (protocol/contrast.ts), saying
 * the widget writes its text in a readable colour on it instead. The live
 * region is always there, so a screen reader hears the warning come and go.
 */
import { contrastProblem, DARK_TEXT } from '../../../../../protocol/contrast';

export function ContrastWarning({ id, color }: { id: string; color: string }) {
  const problem = contrastProblem(color);
  return (
    <div id={id} className="contrast-warning" aria-live="polite">
      {problem && (
        <p className="warning">
          ⚠ White text on {color} has a contrast of {problem.ratio.toFixed(1)}:1, under the 4.5:1 that WCAG 2.1 AA asks for. The widget writes its text on this
          colour in {problem.textColor === DARK_TEXT ? 'dark grey' : 'white'} instead; a darker colour keeps it white.
        </p>
      )}
    </div>
  );
}
