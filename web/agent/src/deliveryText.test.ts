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

    it("says each of the server's own sentences (server/webhooks/outcomes.ts) in the agent's language, keeping figures and details", async () => {
      await setLanguage('de');
      expect(deliveryFailureText('Not delivered: the customer endpoint did not answer (timeout after 3 attempts).')).toBe(
        'Nicht zugestellt: Der Kundenendpunkt hat nicht geantwortet (Zeitüberschreitung; Versuche: 3).',
      );
      expect(deliveryFailureText('Not delivered: the customer endpoint answered HTTP 500 (after 1 attempt).')).toBe(
        'Nicht zugestellt: Der Kundenendpunkt hat HTTP 500 geantwortet (Versuche: 1).',
      );
      expect(deliveryFailureText('Not delivered: the customer endpoint could not be reached (ECONNREFUSED, after 2 attempts).')).toBe(
        'Nicht zugestellt: Der Kundenendpunkt war nicht erreichbar (ECONNREFUSED; Versuche: 2).',
      );
      expect(deliveryFailureText("Not delivered: the customer endpoint's answer was not understood (not JSON).")).toBe(
        'Nicht zugestellt: Die Antwort des Kundenendpunkts war nicht verständlich (not JSON).',
      );
      expect(deliveryFailureText('Not delivered: the customer endpoint did not answer in time (the delivery deadline passed).')).toBe(
        'Nicht zugestellt: Der Kundenendpunkt hat nicht rechtzeitig geantwortet (die Zustellfrist ist abgelaufen).',
      );
      expect(deliveryFailureText('Not delivered: the customer endpoint did not answer in time (2 attempts, last: timeout).')).toBe(
        'Nicht zugestellt: Der Kundenendpunkt hat nicht rechtzeitig geantwortet (Versuche: 2; zuletzt: timeout).',
      );
    });
  });
});
