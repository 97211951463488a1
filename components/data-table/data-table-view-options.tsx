"use client";
import { DropdownMenu } from "radix-ui";
import type { Table } from "@tanstack/react-table";
import { Check, Columns3 } from "lucide-react";
import { Button } from "@/components/ui/button";
import "./column-meta";

/** "Columns" menu: show or hide columns; the choice goes to the URL and is remembered in this browser. */
export function DataTableViewOptions<T>({ table, onReset }: { table: Table<T>; onReset: () => void }) {
  const columns = table.getAllLeafColumns().filter((c) => c.getCanHide());
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger asChild>
        <Button variant="outline" size="sm">
          <Columns3 aria-hidden /> Columns
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={4}
          className="z-50 min-w-48 rounded-md border bg-card p-1 text-sm text-card-foreground shadow-md"
        >
          <DropdownMenu.Label className="px-2 py-1.5 text-xs font-medium text-muted-foreground">Visible columns</DropdownMenu.Label>
          {columns.map((c) => (
            <DropdownMenu.CheckboxItem
              key={c.id}
              checked={c.getIsVisible()}
              onCheckedChange={(v) => c.toggleVisibility(v === true)}
              onSelect={(e) => e.preventDefault()}
              className="flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 outline-none data-[highlighted]:bg-accent"
            >
              <span className="flex size-4 items-center justify-center">
                <DropdownMenu.ItemIndicator>
                  <Check className="size-3.5" aria-hidden />
                </DropdownMenu.ItemIndicator>
              </span>
              {c.columnDef.meta?.label ?? c.id}
            </DropdownMenu.CheckboxItem>
          ))}
          <DropdownMenu.Separator className="my-1 h-px bg-border" />
          <DropdownMenu.Item onSelect={onReset} className="cursor-pointer rounded px-2 py-1.5 outline-none data-[highlighted]:bg-accent">
            Reset columns and widths
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
