/** The texts of the pages part of the app (docs/I18N.md says which screens each part holds). */
export const pages = {};
