// The mixed-set metrics check on SQLite (one provider per file: the route handlers read the process-wide database).
import { defineMixedSetSuite } from "./mixed-set-suite.ts";

defineMixedSetSuite("sqlite");
