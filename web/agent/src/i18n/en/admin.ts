/** The texts of the admin part of the app (docs/I18N.md says which screens each part holds). */
export const admin = {};
