-- CreateTable
CREATE TABLE "FrozenExport" (
    "versionId" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "chunks" INTEGER NOT NULL,
    "bytes" BIGINT NOT NULL,
    "sha256" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "FrozenExport_pkey" PRIMARY KEY ("versionId","format")
);

-- CreateTable
CREATE TABLE "FrozenExportChunk" (
    "versionId" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "rowsEnd" INTEGER NOT NULL,
    "size" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "FrozenExportChunk_pkey" PRIMARY KEY ("versionId","format","seq")
);

-- AddForeignKey
ALTER TABLE "FrozenExport" ADD CONSTRAINT "FrozenExport_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "DatasetVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FrozenExportChunk" ADD CONSTRAINT "FrozenExportChunk_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "DatasetVersion"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The chunks are zlib-compressed already: store them out of line without a second (futile) compression attempt.
ALTER TABLE "FrozenExportChunk" ALTER COLUMN "data" SET STORAGE EXTERNAL;
