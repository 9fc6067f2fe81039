/** A failed reply's line names the failure once (#32 item 7: it read "Not delivered: Not delivered: …"). */
import { afterEach, describe, expect, it } from 'vitest';
import { deliveryFailureText } from './deliveryText';
import { setLanguage } from './i18n';

// setLanguage sets <html lang dir>: a stand-in document is enough here.
(globalThis as { document?: unknown }).document ??= { documentElement: { lang: '', dir: '' } };

describe('deliveryFailureText', () => {
  it('says "Not delivered" once for the server\'s own sentences (server/webhooks/outcomes.ts)', () => {
    expect(deliveryFailureText('Not delivered: the customer endpoint did not answer (timeout after 3 attempts).')).toBe(
      'Not delivered: the customer endpoint did not answer (timeout after 3 attempts).',
    );
  });

  it("puts it before a customer endpoint's own refusal, unchanged", () => {
    expect(deliveryFailureText('User blocked the bot')).toBe('Not delivered: User blocked the bot');
  });

  it('says only "Not delivered" without a reason', () => {
    expect(deliveryFailureText(null)).toBe('Not delivered');
    expect(deliveryFailureText('')).toBe('Not delivered');
    expect(deliveryFailureText('Not delivered:')).toBe('Not delivered');
  });

  describe("in the agent's language", () => {
    afterEach(() => setLanguage('en'));

    it("says it in the agent's words around the server's or the endpoint's own reason", async () => {
      await setLanguage('de');
      expect(deliveryFailureText('User blocked the bot')).toBe('Nicht zugestellt: User blocked the bot');
      expect(deliveryFailureText('Not delivered: the customer endpoint did not answer.')).toBe('Nicht zugestellt: the customer endpoint did not answer.');
      expect(deliveryFailureText(null)).toBe('Nicht zugestellt');
    });
  });
});
