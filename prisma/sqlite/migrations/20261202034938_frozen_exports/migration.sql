-- CreateTable
CREATE TABLE "FrozenExport" (
    "versionId" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "chunks" INTEGER NOT NULL,
    "bytes" BIGINT NOT NULL,
    "sha256" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("versionId", "format"),
    CONSTRAINT "FrozenExport_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "DatasetVersion" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "FrozenExportChunk" (
    "versionId" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "rowsEnd" INTEGER NOT NULL,
    "size" INTEGER NOT NULL,
    "data" BLOB NOT NULL,

    PRIMARY KEY ("versionId", "format", "seq"),
    CONSTRAINT "FrozenExportChunk_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "DatasetVersion" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
