// The target columns a label and a suggestion share (labels.ts and suggestions.ts both write them).
export interface LabelTargetRow {
  targetType: string;
  targetKey: string;
  trajectoryId: string;
  stepStart: number | null;
  stepEnd: number | null;
  forkPointId: string | null;
}
