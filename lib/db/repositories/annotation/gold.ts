// Adjudicated (gold) labels: one per schema and target, versioned like labels so two reviewers never overwrite
// each other silently.
import type { Db } from "../../client.ts";
import { isUniqueViolation } from "../../unique-violation.ts";

export interface GoldView {
  id: string;
  schemaId: string;
  targetKey: string;
  targetType: string;
  trajectoryId: string;
  stepStart: number | null;
  stepEnd: number | null;
  value: string;
  comment: string | null;
  adjudicatorId: string;
  version: number;
  updatedAt: string;
}

const toView = (g: Omit<GoldView, "updatedAt"> & { updatedAt: Date; createdAt: Date }): GoldView => {
  const { createdAt: _c, updatedAt, ...rest } = g;
  return { ...rest, updatedAt: updatedAt.toISOString() };
};

export async function listGold(db: Db, trajectoryId: string): Promise<GoldView[]> {
  return (await db.goldLabel.findMany({ where: { trajectoryId }, orderBy: { targetKey: "asc" } })).map(toView);
}

export type NewGold = Omit<GoldView, "id" | "version" | "updatedAt">;

/** Insert (expectedVersion = 0) or update at expectedVersion. Null when another reviewer saved first. */
export async function saveGold(db: Db, g: NewGold, expectedVersion: number): Promise<GoldView | null> {
  if (expectedVersion === 0) {
    try {
      return toView(await db.goldLabel.create({ data: g }));
    } catch (e) {
      if (isUniqueViolation(e)) return null;
      throw e;
    }
  }
  const n = await db.goldLabel.updateMany({
    where: { schemaId: g.schemaId, targetKey: g.targetKey, version: expectedVersion },
    data: { value: g.value, comment: g.comment, adjudicatorId: g.adjudicatorId, version: { increment: 1 } },
  });
  if (n.count === 0) return null;
  return toView(await db.goldLabel.findUniqueOrThrow({ where: { schemaId_targetKey: { schemaId: g.schemaId, targetKey: g.targetKey } } }));
}

export async function findUserName(db: Db, id: string): Promise<string | null> {
  return (await db.user.findUnique({ where: { id }, select: { name: true } }))?.name ?? null;
}
