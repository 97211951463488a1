import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Separate build folders let several builds (e.g. parallel e2e runs) coexist; default .next.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // Native drivers stay outside the bundle; Next loads them from node_modules at runtime.
  // tsx/esbuild: the CLI's SQLite writer thread loads them; the server never starts that thread, but the bundler sees it.
  serverExternalPackages: [
    "rate-limiter-flexible",
    "better-sqlite3",
    "@prisma/adapter-better-sqlite3",
    "pg",
    "@prisma/adapter-pg",
    "tsx",
    "esbuild",
  ],
  poweredByHeader: false,
  // The stylesheet (Tailwind: one small file for every page) goes into the HTML's <head>. As a <link> it was a second
  // request, answered only once the server had finished streaming the page, and nothing paints before it: the replay's
  // opening screen, in the first bytes of the HTML, waited for it (first frame ≈ 430 → 370 ms, docs/benchmarks.md).
  // Experimental in Next 16; the CSP already allows inline styles (lib/http/security-headers.ts).
  experimental: { inlineCss: true },
  typedRoutes: false,
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "same-origin" },
          { key: "X-Frame-Options", value: "DENY" },
        ],
      },
    ];
  },
};

export default nextConfig;
