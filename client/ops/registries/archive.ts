/** A registry row's archive switch in a patch: `undefined` keeps it, true archives it (once), false brings it back. */
export const archivedAt = (archived: boolean | undefined, was: string | null, at: string) => (archived === undefined ? was : archived ? (was ?? at) : null);
