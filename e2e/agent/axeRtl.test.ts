/**
 * axe-core on every screen of the agent app in Arabic, laid out right to left
 * (axeSuite.ts): the sign-in page in the browser's language, every other
 * screen in the agent's choice.
 */
import { describe } from 'vitest';
import { axeAvailable, axeSuite } from './axeSuite.js';

describe.skipIf(!axeAvailable())('agent app in Arabic (right to left): axe-core finds no serious or critical violation', () => {
  axeSuite('ar');
});
