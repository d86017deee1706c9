/**
 * Account: signing in and up, two-factor, the emailed links, first-run setup, and the
 * account's security, devices and API tokens.
 * Its screens, each loaded on first use as a chunk of its own (client/ui/lazy-screen.tsx): this index
 * imports none of them statically. The parts they draw sit beside them in this folder.
 */
import { lazy } from "react";

export const SignInScreen = lazy(() => import("./SignIn.js").then((m) => ({ default: m.SignInScreen })));
export const SignUpScreen = lazy(() => import("./SignUp.js").then((m) => ({ default: m.SignUpScreen })));
export const TwoFactorScreen = lazy(() => import("./TwoFactor.js").then((m) => ({ default: m.TwoFactorScreen })));
export const MagicLinkScreen = lazy(() => import("./TokenLinks.js").then((m) => ({ default: m.MagicLinkScreen })));
export const ResetPasswordScreen = lazy(() => import("./TokenLinks.js").then((m) => ({ default: m.ResetPasswordScreen })));
export const ConfirmEmailScreen = lazy(() => import("./TokenLinks.js").then((m) => ({ default: m.ConfirmEmailScreen })));
export const SetupScreen = lazy(() => import("./Setup.js").then((m) => ({ default: m.SetupScreen })));
export const SecurityScreen = lazy(() => import("./Security.js").then((m) => ({ default: m.SecurityScreen })));
export const DevicesScreen = lazy(() => import("./Devices.js").then((m) => ({ default: m.DevicesScreen })));
export const TokensScreen = lazy(() => import("./Tokens.js").then((m) => ({ default: m.TokensScreen })));
