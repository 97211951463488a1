-- CreateTable
CREATE TABLE "SynthesizedKeyframe" (
    "trajectoryId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "layoutKey" TEXT NOT NULL,
    "keyframe" TEXT NOT NULL,

    CONSTRAINT "SynthesizedKeyframe_pkey" PRIMARY KEY ("trajectoryId","seq")
);

-- AddForeignKey
ALTER TABLE "SynthesizedKeyframe" ADD CONSTRAINT "SynthesizedKeyframe_trajectoryId_fkey" FOREIGN KEY ("trajectoryId") REFERENCES "Trajectory"("id") ON DELETE CASCADE ON UPDATE CASCADE;
