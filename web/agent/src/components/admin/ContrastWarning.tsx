/**
 * Under the widget's colour in the channel form: a warning when white text on
 * the picked colour fails WCAG 2.1 AA's 4.5:1 (protocol/contrast.ts), saying
 * the widget writes its text in a readable colour on it instead. The live
 * region is always there, so a screen reader hears the warning come and go.
 */
import { contrastProblem, DARK_TEXT } from '../../../../../protocol/contrast';
import { formatNumber, t } from '../../i18n';

export function ContrastWarning({ id, color }: { id: string; color: string }) {
  const problem = contrastProblem(color);
  return (
    <div id={id} className="contrast-warning" aria-live="polite">
      {problem && (
        <p className="warning">
          {t(problem.textColor === DARK_TEXT ? 'admin.contrast.warningDark' : 'admin.contrast.warningWhite', {
            color,
            ratio: formatNumber(problem.ratio, { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
            needed: formatNumber(4.5),
          })}
        </p>
      )}
    </div>
  );
}
