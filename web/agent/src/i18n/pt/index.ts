/** Português: the core of the agent app's texts (its admin pages' are in admin.json, loaded by groups), one file per part (as ../en). */
export { default as common } from './common.json';
export { default as pages } from './pages.json';
export { default as workspace } from './workspace.json';
