/** Português: the agent app's texts but the admin pages' (./admin.ts, a chunk of its own), one file per part (as ../en). */
import type { CoreTexts } from '../en';
import { common } from './common';
import { pages } from './pages';
import { workspace } from './workspace';

export const texts: CoreTexts = { ...common, ...workspace, ...pages };
