import { openDatabase, migrate } from "/work/main/server/db/client.js";
const d = await openDatabase({ databaseUrl: "postgres://postgres@127.0.0.1:5432/scratch" } as any);
await migrate(d);
process.exit(0);
