"use client";
import { Monitor, Moon, Sun } from "lucide-react";
import { useTheme } from "next-themes";
import { useSyncExternalStore } from "react";
import { Button } from "@/components/ui/button";

const ORDER = ["light", "dark", "system"] as const;
const noopSubscribe = () => () => {};
const ICONS = { light: Sun, dark: Moon, system: Monitor };

/** Cycles light → dark → system. Renders a stable placeholder until mounted to avoid a hydration mismatch. */
export function ThemeToggle() {
  const { theme, setTheme } = useTheme();
  const mounted = useSyncExternalStore(
    noopSubscribe,
    () => true,
    () => false,
  );
  const current = (mounted && ORDER.includes(theme as (typeof ORDER)[number]) ? theme : "system") as (typeof ORDER)[number];
  const Icon = ICONS[current];
  const next = ORDER[(ORDER.indexOf(current) + 1) % ORDER.length]!;
  return (
    <Button
      variant="ghost"
      size="sm"
      aria-label={`Theme: ${current}. Switch to ${next}`}
      title={`Theme: ${current}`}
      onClick={() => setTheme(next)}
      className="w-full justify-start"
    >
      <Icon aria-hidden />
      <span className="capitalize">{current} theme</span>
    </Button>
  );
}
