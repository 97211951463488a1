export default function Loading() {
  return (
    <div role="status" aria-label="Loading runs" className="flex flex-col gap-2">
      <div className="h-7 w-40 animate-pulse rounded bg-muted" />
      {Array.from({ length: 8 }, (_, i) => (
        <div key={i} className="h-11 animate-pulse rounded bg-muted/70" />
      ))}
    </div>
  );
}
