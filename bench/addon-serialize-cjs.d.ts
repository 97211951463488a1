// The serialize addon's CommonJS build, imported by path (its ESM build has no default export under Node's loader):
// used only as the "before" baseline of bench/keyframes.ts.
declare module "@xterm/addon-serialize/lib/addon-serialize.js" {
  import type { SerializeAddon } from "@xterm/addon-serialize";

  const addon: { SerializeAddon: typeof SerializeAddon };
  export default addon;
}
