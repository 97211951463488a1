import type { Metadata } from "next";
import type { ReactNode } from "react";
import { headers } from "next/headers";
import { ThemeProvider } from "@/components/layout/theme-provider";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "ReTerm Studio", template: "%s · ReTerm Studio" },
  description: "Inspect, annotate and curate terminal-agent trajectories for recovery training.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // The proxy's CSP nonce: next-themes' inline script (no flash of the wrong theme) must carry it.
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  return (
    <html lang="en" suppressHydrationWarning>
      <body className="min-h-screen antialiased">
        <ThemeProvider nonce={nonce}>{children}</ThemeProvider>
      </body>
    </html>
  );
}
