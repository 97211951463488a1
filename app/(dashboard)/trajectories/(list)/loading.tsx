export default function Loading() {
  return (
    <div role="status" aria-label="Loading trajectories" className="flex flex-col gap-3">
      <div className="h-7 w-48 animate-pulse rounded bg-muted" />
      <div className="rounded-lg border bg-card">
        <div className="flex flex-col gap-2 border-b p-3">
          <div className="h-8 max-w-xl animate-pulse rounded bg-muted" />
          <div className="flex gap-1.5">
            {Array.from({ length: 9 }, (_, i) => (
              <div key={i} className="h-8 w-20 animate-pulse rounded bg-muted/70" />
            ))}
          </div>
        </div>
        {Array.from({ length: 12 }, (_, i) => (
          <div key={i} className="m-2 h-9 animate-pulse rounded bg-muted/60" />
        ))}
      </div>
      <span className="sr-only">Loading trajectories…</span>
    </div>
  );
}
