-- AlterTable
ALTER TABLE "FrozenExport" ADD COLUMN "card" TEXT;
