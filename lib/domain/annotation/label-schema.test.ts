import { describe, expect, it } from "vitest";
import { valueLabel } from "./label-schema.ts";

describe("valueLabel", () => {
  const options = [
    { value: "timeout", label: "Timeout" },
    { value: "hang", label: "Hang / interactive prompt" },
  ];
  it("names a value by its option's label", () => {
    expect(valueLabel({ kind: "categorical", options }, "hang")).toBe("Hang / interactive prompt");
  });
  it("says Yes/No for a boolean schema without options, and keeps a value no option names", () => {
    expect(valueLabel({ kind: "boolean", options: [] }, "true")).toBe("Yes");
    expect(valueLabel({ kind: "boolean", options: [] }, "false")).toBe("No");
    expect(valueLabel({ kind: "categorical", options }, "gone")).toBe("gone");
  });
});
