/** The texts of the workspace part of the app (docs/I18N.md says which screens each part holds). */
export const workspace = {};
