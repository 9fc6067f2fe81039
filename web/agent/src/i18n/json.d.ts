/** An admin catalogue's group of keys (groups.ts), as index.ts imports it: `./ru/admin.json?team` (compacted by the build). */
declare module '*.json?team' {
  const texts: unknown;
  export default texts;
}
declare module '*.json?channels' {
  const texts: unknown;
  export default texts;
}
declare module '*.json?settings' {
  const texts: unknown;
  export default texts;
}
declare module '*.json?delivery' {
  const texts: unknown;
  export default texts;
}
declare module '*.json?records' {
  const texts: unknown;
  export default texts;
}
