// The filter options every analytics command takes (`analytics …` and `analytics failure-modes`): repeatable names,
// the same as the analytics pages' filters. One definition, spread into each command's own argv schema and options.
import { z } from "zod";

export const filterName = z.string().trim().min(1, "must not be empty").max(200);

export const analyticsFilterArgs = {
  run: z.array(filterName).default([]),
  model: z.array(filterName).default([]),
  checkpoint: z.array(filterName).default([]),
  method: z.array(filterName).default([]),
  category: z.array(filterName).default([]),
};

export const ANALYTICS_FILTER_OPTIONS = {
  run: { type: "string", multiple: true },
  model: { type: "string", multiple: true },
  checkpoint: { type: "string", multiple: true },
  method: { type: "string", multiple: true },
  category: { type: "string", multiple: true },
} as const;
