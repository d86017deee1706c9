/** Vite turns `?url` imports into the URL of the file, served from our own origin (no CDN). */
declare module "*.wasm?url" {
  const url: string;
  export default url;
}
