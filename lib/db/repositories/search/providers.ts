// The search provider of a client's database.
import { dialectOf, type Queryable } from "../../dialect.ts";
import { postgresSearch } from "./postgres.ts";
import type { SearchProvider } from "./provider.ts";
import { sqliteSearch } from "./sqlite.ts";

export function searchProviderOf(db: Queryable): SearchProvider {
  return dialectOf(db) === "sqlite" ? sqliteSearch : postgresSearch;
}
