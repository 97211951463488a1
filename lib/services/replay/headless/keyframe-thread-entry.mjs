// Worker entry: registers tsx's loader inside the thread (the server runs compiled code, this file is loaded by
// path), then runs the TypeScript keyframe thread.
import { register } from "tsx/esm/api";

register();
await import("./keyframe-thread.ts");
