// Distributions over the filtered runs: trajectory length, step of the first error, attempts needed to recover,
// and mean reward per sibling group (the attempts of one fork point).
import { authorize, type ServiceContext } from "../context.ts";
import { findSiblingDistributions, findTrajectoryHistograms } from "../../db/repositories/analytics/distributions.ts";
import type { AnalyticsFilter } from "../../validation/analytics-params.ts";
import { resolveDrillRuns } from "./drill-runs.ts";

export interface CountBucket {
  /** Inclusive bounds (whole numbers). */
  lo: number;
  hi: number;
  rollouts: number;
  attempts: number;
}

export interface RewardBucket {
  /** [lo, hi); the last bucket includes hi. */
  lo: number;
  hi: number;
  groups: number;
  /** Groups of two or more rewarded attempts that all got the same reward. */
  flatGroups: number;
}

export interface DistributionsReport {
  filter: AnalyticsFilter;
  /** Trajectories by step count (original rollouts and recovery attempts). */
  length: CountBucket[];
  /** Trajectories by 0-based index of their first error step. */
  firstError: CountBucket[];
  /** Trajectories in scope without an error step. */
  withoutError: number;
  /** Fork points with an attempt of known outcome, by 1-based position of the first success; null = never recovered. */
  attemptsToRecover: { attempts: number | null; forkPoints: number }[];
  /** Sibling groups with at least one rewarded attempt, by mean reward. */
  siblingReward: RewardBucket[];
  drillRunIds: string[] | null;
}

const counts = (bs: { lo: number; hi: number; a: number; b: number }[]): CountBucket[] =>
  bs.map(({ lo, hi, a, b }) => ({ lo, hi, rollouts: a, attempts: b }));

export async function getDistributions(ctx: ServiceContext, filter: AnalyticsFilter): Promise<DistributionsReport> {
  authorize(ctx, "trajectory:read");
  const [trajectories, { attemptsToRecover, siblingReward: reward }, drillRunIds] = await Promise.all([
    findTrajectoryHistograms(ctx.db, filter),
    findSiblingDistributions(ctx.db, filter),
    resolveDrillRuns(ctx, filter),
  ]);
  return {
    filter,
    length: counts(trajectories.length),
    firstError: counts(trajectories.firstError),
    withoutError: trajectories.withoutError,
    attemptsToRecover,
    siblingReward: reward.map(({ lo, hi, a, b }) => ({ lo, hi, groups: a, flatGroups: b })),
    drillRunIds,
  };
}
