/**
 * Runs once per server process before the first request: checks the configuration (a bad
 * value stops start-up naming the variable) and migrates the database.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { boot } = await import("./lib/boot");
  await boot();
}
