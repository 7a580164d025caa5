const UNIQUE_VIOLATION = '23505';

/** An error of PostgreSQL or PGlite with this SQLSTATE, as thrown or as Drizzle's wrapped cause. */
export function hasSqlState(error: unknown, state: string): boolean {
  // a primitive has no code to match, so reading one off it is harmless
  for (let e = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === state) return true;
  }
  return false;
}

export const isUniqueViolation = (error: unknown) => hasSqlState(error, UNIQUE_VIOLATION);
