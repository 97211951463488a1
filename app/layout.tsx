import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { headers } from "next/headers";
import { ThemeProvider } from "@/components/layout/theme-provider";
import { getEnv, publicBaseUrl } from "@/lib/env";
import "./globals.css";

const description = "Inspect, annotate and curate terminal-agent trajectories for recovery training.";

// Static assets in public/ (regenerated from public/icon.svg by scripts/make-icons.ts). A function, not a constant,
// so metadataBase (which makes the OG/Twitter image URLs absolute) comes from the server's environment at run time,
// not from whatever environment `next build` happened to run in.
export function generateMetadata(): Metadata {
  return {
    metadataBase: publicBaseUrl(getEnv()),
    title: { default: "ReTerm Studio", template: "%s · ReTerm Studio" },
    description,
    applicationName: "ReTerm Studio",
    manifest: "/site.webmanifest",
    icons: {
      icon: [
        { url: "/favicon.ico", sizes: "16x16 32x32 48x48" },
        { url: "/icon.svg", type: "image/svg+xml" },
      ],
      apple: { url: "/apple-touch-icon.png", sizes: "180x180" },
    },
    openGraph: {
      title: "ReTerm Studio",
      description,
      siteName: "ReTerm Studio",
      type: "website",
      images: [{ url: "/og-image.png", width: 1200, height: 630, alt: "ReTerm Studio" }],
    },
    twitter: { card: "summary_large_image", title: "ReTerm Studio", description, images: ["/og-image.png"] },
  };
}

export const viewport: Viewport = {
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#ffffff" },
    { media: "(prefers-color-scheme: dark)", color: "#0f172a" },
  ],
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
