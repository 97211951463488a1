"use client";
import type { BarShapeProps } from "recharts";

/** A bar that is a link: click or Enter opens `href`, and its label names the value for screen readers. */
export function drillBarShape(
  items: readonly { href: string; label: string }[],
  seriesName: string,
  navigate: (href: string) => void,
  testId: string,
) {
  function DrillBar(p: BarShapeProps) {
    const item = items[p.index];
    if (!item || !(p.width > 0) || !(p.height > 0)) return <g />;
    const value = Array.isArray(p.value) ? p.value[1] - p.value[0] : p.value;
    return (
      <g
        role="link"
        tabIndex={0}
        aria-label={`${item.label}, ${seriesName}: ${value}. Open these trajectories`}
        data-testid={testId}
        data-value={value}
        data-label={item.label}
        className="cursor-pointer outline-none focus-visible:opacity-80"
        onClick={() => navigate(item.href)}
        onKeyDown={(e) => {
          if (e.key === "Enter" || e.key === " ") {
            e.preventDefault();
            navigate(item.href);
          }
        }}
      >
        <rect x={p.x} y={p.y} width={p.width} height={p.height} rx={2} fill={p.fill} className="transition-opacity hover:opacity-80" />
      </g>
    );
  }
  return DrillBar;
}
