/** The hostile suites' support, by subject in test/support/hostile/ (this path is the one the suites import). */
export * from "./hostile/index.js";
