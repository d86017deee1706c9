/**
 * sharp, loaded on first use. Its native libvips adds about 30 MB of resident memory to a process
 * the moment it is imported, and most processes idle for hours without making a thumbnail, a
 * report photo or an extraction image (docs/develop/performance.md, memory).
 */
import type Sharp from "sharp";

let loaded: Promise<typeof Sharp> | null = null;

export function loadSharp(): Promise<typeof Sharp> {
  return (loaded ??= import("sharp").then((m) => m.default));
}
