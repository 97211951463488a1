// Third-party fixtures live in ../shared/fixtures and are never copied into the project. Tests that need them
// skip with a clear message when that folder is absent (a user's clone has no ../shared).
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "vitest";

export const SHARED_FIXTURES = path.resolve(import.meta.dirname, "../../../shared/fixtures");
export const hasSharedFixtures = fs.existsSync(SHARED_FIXTURES);
export const sharedFixturesSkipReason = `skipped: ${SHARED_FIXTURES} not found (third-party fixtures are read from ../shared, never copied)`;

export function fixture(...parts: string[]): string {
  return path.join(SHARED_FIXTURES, ...parts);
}

/**
 * A describe block over the shared fixtures. vitest runs a `describe.skip` factory to collect its tests, so a factory
 * that lists fixture folders would throw on a clone without ../shared; here the factory runs only when the fixtures
 * exist, and otherwise one skipped test carries the reason.
 */
export function describeShared(title: string, factory: () => void): void {
  if (hasSharedFixtures) describe(title, factory);
  else describe(title, () => it.skip(sharedFixturesSkipReason, () => undefined));
}
