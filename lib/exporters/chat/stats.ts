// What a chat export counted while writing, for the dataset card: rows kept, dropped and truncated, and where each
// declared tool came from.
import type { ToolOrigin } from "./tools.ts";

export class ChatStats {
  rows = 0;
  /** Rows with no trained assistant turn (nothing for a trainer to learn). */
  droppedUntrained = 0;
  /** Rows over the token budget even with their failed context removed. */
  droppedOverBudget = 0;
  /** Rows whose oldest failed-context turns were removed to fit the budget. */
  truncated = 0;
  readonly tools = new Map<string, ToolOrigin>();

  noteTools(origins: ReadonlyMap<string, ToolOrigin>): void {
    // A tool defined by any source row counts as defined; inferred only when no row had a definition.
    for (const [name, o] of origins) if (this.tools.get(name) !== "source") this.tools.set(name, o);
  }
}
