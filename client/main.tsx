/** The web app's entry: registers the service worker and renders the app. */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { config as zodConfig } from "zod/v4/core";
import { App } from "./ui/App.js";
import { registerServiceWorker } from "./ui/service-worker.js";
import "./ui/styles.css";

// zod would probe for eval (new Function) to compile faster validators; the app's CSP forbids
// eval, so every page load logged a refused probe. The plain validators are fast enough here.
// (zod's core config alone: the schemas load with the screens that use them, not with sign-in.)
zodConfig({ jitless: true });

registerServiceWorker();
createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
