/**
 * Setup of the db project (vitest.config.ts): loads the composition root, which checks the modules'
 * manifests and installs their commands (server/services.ts), so that a test that runs a worker or
 * a service without a whole test service writes through the same registry as the app.
 */
import "../../server/services.js";
