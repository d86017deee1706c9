/**
 * Builds the web app (client/) into dist/client, where the server serves it. The service worker is
 * compiled from client/sw/sw.ts by vite-plugin-pwa (injectManifest: our own code, Workbox's
 * precache list injected), and registered by the app with workbox-window (no injected script).
 * The last line of the build reports the bundle size: what a phone downloads before the app draws,
 * and the whole app, which the service worker fetches for offline use after the first visit.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { VitePWA } from "vite-plugin-pwa";

const outDir = path.resolve(import.meta.dirname, "dist/client");

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

/**
 * Prints after the build what a phone downloads before the app can draw (the entry chunk, what it
 * imports statically, and their CSS: every screen is a chunk of its own, fetched when first drawn),
 * the whole app's JS + CSS (raw and gzipped: the service worker precaches all of it after the first
 * visit), and the service worker's size.
 */
function bundleSize(): Plugin {
  const start = new Set<string>();
  return {
    name: "bundle-size",
    apply: "build",
    writeBundle(_options, bundle) {
      const entry = Object.values(bundle).find((c) => c.type === "chunk" && c.isEntry && c.fileName.startsWith("assets/"));
      const visit = (name: string) => {
        const chunk = bundle[name];
        if (start.has(name) || chunk?.type !== "chunk") return;
        start.add(name);
        for (const css of chunk.viteMetadata?.importedCss ?? []) start.add(css);
        chunk.imports.forEach(visit);
      };
      if (entry) visit(entry.fileName);
    },
    closeBundle: {
      order: "post",
      handler() {
        const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
        const app = { raw: 0, gz: 0 };
        const first = { raw: 0, gz: 0 };
        let sw = 0;
        for (const file of filesUnder(outDir)) {
          if (!/\.(js|css)$/.test(file)) continue;
          const bytes = readFileSync(file);
          if (path.basename(file) === "sw.js") sw = bytes.length;
          else {
            const gz = gzipSync(bytes).length;
            app.raw += bytes.length;
            app.gz += gz;
            if (start.has(path.relative(outDir, file))) {
              first.raw += bytes.length;
              first.gz += gz;
            }
          }
        }
        // The service worker's own build runs this plugin again with no app chunks: it has nothing to say.
        if (!first.raw) return;
        console.log(
          `\nbundle size: first load ${kb(first.raw)} (${kb(first.gz)} gzip) before the first screen's own chunk; ` +
            `app ${kb(app.raw)} (${kb(app.gz)} gzip), service worker ${kb(sw)}`,
        );
      },
    },
  };
}

export default defineConfig({
  root: path.resolve(import.meta.dirname, "client"),
  publicDir: "public",
  build: { outDir, emptyOutDir: true, sourcemap: true },
  server: { proxy: { "/api": "http://localhost:3000" } },
  plugins: [
    react(),
    VitePWA({
      strategies: "injectManifest",
      srcDir: "sw",
      filename: "sw.ts",
      injectRegister: false,
      manifest: {
        name: "Inventory",
        short_name: "Inventory",
        description: "Catalogue things where there is no signal; sync when you are back.",
        start_url: "/",
        display: "standalone",
        background_color: "#f6f5f1",
        theme_color: "#2f5d50",
        icons: [{ src: "/icon.svg", sizes: "any", type: "image/svg+xml", purpose: "any maskable" }],
      },
      // The scanner's decoder (zxing-wasm, about 1 MB) too: a label is scanned where there is no signal.
      injectManifest: { globPatterns: ["**/*.{js,css,html,svg,webmanifest,wasm}"] },
    }),
    bundleSize(),
  ],
});
