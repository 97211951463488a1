// Worked examples with published values: Cohen (1960) as in the Wikipedia article's 50-item example, Fleiss (1971)
// as in Wikipedia's 10-subject × 14-rater table, and Krippendorff (2011) "Computing Krippendorff's Alpha-Reliability"
// (4 observers, 12 units, missing values): nominal α = 0.743, ordinal α = 0.815.
import { describe, expect, it } from "vitest";
import { agreementReport, cohenKappa, coincidenceMatrix, fleissKappaFromCounts, krippendorffAlpha, type RatedItem } from "./agreement.ts";

function items(rows: (string | null)[][]): RatedItem[] {
  // rows = annotators, columns = units
  const units = rows[0]!.length;
  return Array.from({ length: units }, (_, u) => ({
    item: `u${u}`,
    ratings: new Map(rows.flatMap((r, a) => (r[u] == null ? [] : [[`a${a}`, r[u]!] as [string, string]]))),
  }));
}

describe("Cohen's kappa", () => {
  it("matches the 50-item yes/no example (po 0.7, pe 0.5, κ 0.4)", () => {
    const list: RatedItem[] = [];
    const add = (n: number, a: string, b: string) => {
      for (let i = 0; i < n; i++)
        list.push({
          item: `${a}${b}${i}`,
          ratings: new Map([
            ["A", a],
            ["B", b],
          ]),
        });
    };
    add(20, "yes", "yes");
    add(5, "yes", "no");
    add(10, "no", "yes");
    add(15, "no", "no");
    const r = cohenKappa(list, "A", "B", ["yes", "no"]);
    expect(r.n).toBe(50);
    expect(r.kappa).toBeCloseTo(0.4, 10);
    expect(r.confusion).toEqual({
      values: ["yes", "no"],
      counts: [
        [20, 5],
        [10, 15],
      ],
    });
  });

  it("is 1 for perfect agreement and null when both used a single value", () => {
    const perfect = items([
      ["x", "y", "x"],
      ["x", "y", "x"],
    ]);
    expect(cohenKappa(perfect, "a0", "a1").kappa).toBe(1);
    expect(
      cohenKappa(
        items([
          ["x", "x"],
          ["x", "x"],
        ]),
        "a0",
        "a1",
      ).kappa,
    ).toBeNull();
  });
});

describe("Fleiss' kappa", () => {
  it("matches the published 10 × 14 example (κ ≈ 0.210)", () => {
    const table = [
      [0, 0, 0, 0, 14],
      [0, 2, 6, 4, 2],
      [0, 0, 3, 5, 6],
      [0, 3, 9, 2, 0],
      [2, 2, 8, 1, 1],
      [7, 7, 0, 0, 0],
      [3, 2, 6, 3, 0],
      [2, 5, 3, 2, 2],
      [6, 5, 2, 1, 0],
      [0, 2, 2, 3, 7],
    ];
    expect(fleissKappaFromCounts(table)).toBeCloseTo(0.20993, 4);
  });

  it("is null when items have different numbers of ratings", () => {
    expect(
      fleissKappaFromCounts([
        [1, 1],
        [3, 0],
      ]),
    ).toBeNull();
  });
});

describe("Krippendorff's alpha (Krippendorff 2011 example)", () => {
  const data = items([
    ["1", "2", "3", "3", "2", "1", "4", "1", "2", null, null, null],
    ["1", "2", "3", "3", "2", "2", "4", "1", "2", "5", null, "3"],
    [null, "3", "3", "3", "2", "3", "4", "2", "2", "5", "1", null],
    ["1", "2", "3", "3", "2", "4", "4", "1", "2", "5", "1", null],
  ]);
  const scale = ["1", "2", "3", "4", "5"];

  it("has the published coincidence marginals (n = 40)", () => {
    const m = coincidenceMatrix(data, scale);
    const marg = m.counts.map((r) => r.reduce((s, x) => s + x, 0));
    expect(marg.map((x) => Math.round(x * 1000) / 1000)).toEqual([9, 13, 10, 5, 3]);
  });

  it("nominal α = 0.743", () => {
    expect(krippendorffAlpha(data, "nominal", scale)).toBeCloseTo(0.743, 3);
  });

  it("ordinal α = 0.815", () => {
    expect(krippendorffAlpha(data, "ordinal", scale)).toBeCloseTo(0.815, 3);
  });

  it("ignores units only one observer rated and is null without variation", () => {
    expect(
      krippendorffAlpha(
        items([
          ["a", "a"],
          ["a", "a"],
        ]),
        "nominal",
      ),
    ).toBeNull();
    expect(
      krippendorffAlpha(
        items([
          ["a", "b", "c"],
          ["a", "b", null],
        ]),
        "nominal",
      ),
    ).toBe(1);
  });
});

describe("agreementReport", () => {
  it("counts items ≥ 2 annotators labelled and applies Cohen only to two annotators", () => {
    const two = agreementReport(
      items([
        ["x", "y", "x", null],
        ["x", "y", "y", "x"],
      ]),
      "nominal",
      ["x", "y"],
    );
    expect(two.items).toBe(3);
    expect(two.annotators).toBe(2);
    expect(two.cohenKappa).toBeCloseTo(0.4, 10); // po 2/3, pe 4/9 → (2/3-4/9)/(5/9) = 0.4
    expect(two.matrixKind).toBe("confusion");
    const three = agreementReport(
      items([
        ["x", "y"],
        ["x", "y"],
        ["x", "x"],
      ]),
      "nominal",
    );
    expect(three.cohenKappa).toBeNull();
    expect(three.annotators).toBe(3);
    expect(three.matrixKind).toBe("coincidence");
    expect(three.fleissKappa).not.toBeNull();
  });
});
