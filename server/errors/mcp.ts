/** What an AppError becomes as an MCP tool result: a tool error the assistant can read (`code: message`). */
import type { AppError } from "./classes.js";

export const mcpToolError = (err: AppError) => ({ isError: true as const, content: [{ type: "text" as const, text: `${err.code}: ${err.message}` }] });
