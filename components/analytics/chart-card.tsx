"use client";
import { useRef, useState, type ReactNode } from "react";
import { Download, Image as ImageIcon } from "lucide-react";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { toCsv, type CsvCell } from "@/lib/domain/csv";
import { downloadCsv, downloadSvgAsPng } from "./export-chart";

interface Props {
  title: string;
  description?: ReactNode;
  /** Base of the exported file names. */
  fileName: string;
  csv: { columns: string[]; rows: CsvCell[][] };
  chart: ReactNode;
  /** The same numbers as a table (the accessible view, and the one with every drill-down as a link). */
  table: ReactNode;
  testId?: string;
}

/** A chart with a chart/table switch and PNG/CSV export. */
export function ChartCard({ title, description, fileName, csv, chart, table, testId }: Props) {
  const [view, setView] = useState<"chart" | "table">("chart");
  const chartRef = useRef<HTMLDivElement>(null);
  const exportPng = () => {
    // Legend icons are recharts surfaces too: the chart is the largest one.
    const area = (e: SVGSVGElement) => e.getBoundingClientRect().width * e.getBoundingClientRect().height;
    const svg = [...(chartRef.current?.querySelectorAll<SVGSVGElement>("svg.recharts-surface") ?? [])].sort((a, b) => area(b) - area(a))[0];
    if (svg) void downloadSvgAsPng(svg, `${fileName}.png`, getComputedStyle(chartRef.current!).backgroundColor || "white");
  };
  return (
    <Card data-testid={testId}>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-2">
        <div>
          <CardTitle>{title}</CardTitle>
          {description ? <p className="mt-1 text-xs text-muted-foreground">{description}</p> : null}
        </div>
        <div className="flex items-center gap-1" role="group" aria-label={`${title}: view and export`}>
          <Button
            size="sm"
            variant={view === "chart" ? "secondary" : "ghost"}
            aria-pressed={view === "chart"}
            onClick={() => setView("chart")}
          >
            Chart
          </Button>
          <Button
            size="sm"
            variant={view === "table" ? "secondary" : "ghost"}
            aria-pressed={view === "table"}
            onClick={() => setView("table")}
          >
            Table
          </Button>
          <Button size="sm" variant="outline" onClick={exportPng} disabled={view !== "chart"} title="Download the chart as PNG">
            <ImageIcon aria-hidden /> PNG
          </Button>
          <Button
            size="sm"
            variant="outline"
            onClick={() => downloadCsv(toCsv(csv.columns, csv.rows), `${fileName}.csv`)}
            title="Download the numbers as CSV"
          >
            <Download aria-hidden /> CSV
          </Button>
        </div>
      </CardHeader>
      <CardContent>
        {/* Collapsed rather than display:none, so the chart keeps its measured size for the next switch and the PNG. */}
        <div
          ref={chartRef}
          className={view === "chart" ? "bg-card" : "invisible h-0 overflow-hidden bg-card"}
          aria-hidden={view !== "chart"}
          inert={view !== "chart"}
        >
          {chart}
        </div>
        <div hidden={view !== "table"}>{table}</div>
      </CardContent>
    </Card>
  );
}
