// Worker entry: registers tsx's loader inside the worker thread, then runs the TypeScript writer thread.
import { register } from "tsx/esm/api";

register();
await import("./writer-thread.ts");
