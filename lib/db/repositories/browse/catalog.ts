// Tasks and runs for the catalog pages: the lists, one task or run, a run's error mix. Their outcome counts come from
// catalog-cells.ts; pass rates are computed on original rollouts only, because recovery attempts start from a
// failure state and are not independent samples of the task.
import type { Db } from "../../client.ts";

export interface RunListItem {
  id: string;
  name: string;
  model: string | null;
  checkpoint: string | null;
  trainingMethod: string | null;
}

export interface TaskListItem {
  id: string;
  name: string;
  category: string | null;
  difficulty: string | null;
}

/** Runs, newest import first. */
export async function findRunList(db: Db, ids?: string[]): Promise<RunListItem[]> {
  return db.run.findMany({
    where: ids ? { id: { in: ids } } : {},
    orderBy: { importedAt: "desc" },
    select: { id: true, name: true, model: true, checkpoint: true, trainingMethod: true },
  });
}

/** Tasks by name. */
export async function findTaskList(db: Db, ids?: string[]): Promise<TaskListItem[]> {
  return db.task.findMany({
    where: ids ? { id: { in: ids } } : {},
    orderBy: { name: "asc" },
    select: { id: true, name: true, category: true, difficulty: true },
  });
}

export interface TaskInfo {
  id: string;
  name: string;
  benchmark: string;
  externalId: string;
  category: string | null;
  difficulty: string | null;
  instruction: string | null;
}

export async function findTask(db: Db, id: string): Promise<TaskInfo | null> {
  return db.task.findUnique({
    where: { id },
    select: { id: true, name: true, benchmark: true, externalId: true, category: true, difficulty: true, instruction: true },
  });
}

export interface RunInfo {
  id: string;
  name: string;
  model: string | null;
  agent: string | null;
  checkpoint: string | null;
  trainingMethod: string | null;
  source: string | null;
  importedAt: string;
}

export async function findRun(db: Db, id: string): Promise<RunInfo | null> {
  const r = await db.run.findUnique({
    where: { id },
    select: { id: true, name: true, model: true, agent: true, checkpoint: true, trainingMethod: true, source: true, importedAt: true },
  });
  return r ? { ...r, importedAt: r.importedAt.toISOString() } : null;
}

/** First error category of a run's failed original rollouts (null = no error found in the trace). */
export async function findRunErrorMix(db: Db, runId: string): Promise<{ category: string | null; count: number }[]> {
  const rows = await db.trajectory.groupBy({
    by: ["firstErrorCategory"],
    where: { runId, parentId: null, outcome: "failed" },
    _count: { _all: true },
  });
  return rows.map((r) => ({ category: r.firstErrorCategory, count: r._count._all })).sort((a, b) => b.count - a.count);
}
