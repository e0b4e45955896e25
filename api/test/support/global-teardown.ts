/** Stops the database servers global-setup started (a reused or given one is left running). */
export default async function globalTeardown(): Promise<void> {
  await Promise.all((globalThis.__SPC_E2E_DBS__ ?? []).map((server) => server.stop()));
}
