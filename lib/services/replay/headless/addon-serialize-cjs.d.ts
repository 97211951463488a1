// The serialize addon's CommonJS build, imported by path: its ESM build has no default export while Node's
// ESM loader (tests, scripts) sees only a default for the CommonJS one — the CommonJS file works in both.
declare module "@xterm/addon-serialize/lib/addon-serialize.js" {
  import type { SerializeAddon } from "@xterm/addon-serialize";

  const addon: { SerializeAddon: typeof SerializeAddon };
  export default addon;
}
