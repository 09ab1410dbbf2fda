/** Builds the dashboard into web/dist (git ignores it), which Pelagic serves under `/` (src/api/routes/service/web.ts). */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "/",
  logLevel: "warn",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    reportCompressedSize: false,
    chunkSizeWarningLimit: 400,
  },
  server: { proxy: { "/api": process.env.PELAGIC_URL ?? "http://127.0.0.1:8080" } },
});
