/** The web app's entry: registers the service worker and renders the app. */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./ui/App.js";
import { registerServiceWorker } from "./ui/service-worker.js";
import "./ui/styles.css";

registerServiceWorker();
createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
