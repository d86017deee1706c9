/** A message that screen readers announce when it appears (saved, errors). */
export function Notice({ kind = "info", children }: { kind?: "info" | "error"; children: string | null | undefined }) {
  if (!children) return null;
  return (
    <p className={`notice ${kind}`} role={kind === "error" ? "alert" : "status"}>
      {children}
    </p>
  );
}
