/**
 * axe-core on every screen of the agent app in English (axeSuite.ts), and
 * what only the English pass checks: the widget form's contrast warning and
 * reduced motion.
 */
import { describe, expect, it } from 'vitest';
import { axeAvailable, axeSuite } from './axeSuite.js';

describe.skipIf(!axeAvailable())('agent app: axe-core finds no serious or critical violation', () => {
  const suite = axeSuite('en');
  const page = () => suite.page();
  const run = () => suite.run();
  const check = (name: string) => suite.check(name);

  it('warns in the widget form when white text fails 4.5:1 on the picked colour, and the preview turns its text dark', async () => {
    await page().goto(`${run().base}/admin/channels`);
    await page().locator('.conn-live').waitFor();
    await page().getByRole('button', { name: 'Add website widget' }).click();
    const colour = page().getByLabel('Colour', { exact: true });
    await colour.waitFor();
    const warning = page().locator('.contrast-warning');
    await colour.fill('#1a73e8');
    await expect.poll(() => warning.textContent()).toBe('');
    await colour.fill('#ffeb3b');
    await expect.poll(() => warning.textContent()).toMatch(/White text on #ffeb3b has a contrast of 1\.\d:1, under the 4\.5:1 .* in dark grey instead/);
    // The colour input is described by the warning, so a screen reader reads it with the field.
    expect(await colour.getAttribute('aria-describedby')).toBe(await warning.getAttribute('id'));
    expect(await warning.getAttribute('aria-live')).toBe('polite');
    const preview = page().getByRole('img', { name: 'Preview of the widget' });
    expect(await preview.locator('strong').evaluate((el) => getComputedStyle(el).color)).toBe('rgb(31, 35, 40)');
    await check('admin-channels-contrast-warning');
    await colour.fill('#0b57d0');
    await expect.poll(() => warning.textContent()).toBe('');
  });

  it('honours reduced motion: no transition or animation lasts', async () => {
    await page().emulateMedia({ reducedMotion: 'reduce' });
    try {
      await page().goto(`${run().base}/inbox/pending`);
      await page().locator('.conn-live').waitFor();
      const durations = await page()
        .locator('button')
        .first()
        .evaluate((el) => {
          const cs = getComputedStyle(el);
          return [cs.transitionDuration, cs.animationDuration];
        });
      for (const d of durations) expect(parseFloat(d)).toBeLessThanOrEqual(0.00001);
    } finally {
      await page().emulateMedia({ reducedMotion: 'no-preference' });
    }
  });
});
