/** العربية: the agent app's texts, one file per part (as ../en). */
import type { Texts } from '../en';
import { admin } from './admin';
import { common } from './common';
import { pages } from './pages';
import { workspace } from './workspace';

export const texts: Texts = { ...common, ...workspace, ...pages, ...admin };
