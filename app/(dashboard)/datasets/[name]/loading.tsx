export default function Loading() {
  return <div className="h-96 animate-pulse rounded-lg border bg-muted/40" aria-busy="true" aria-label="Loading dataset" />;
}
