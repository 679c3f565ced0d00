// Runs in-code migrations with Kysely's migrator at start-up; a failure stops the service.
import { Migrator, type Kysely, type Migration } from 'kysely';

export async function migrateToLatest(db: Kysely<unknown>, migrations: Record<string, Migration>): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const detail = error instanceof Error ? error.message : String(error ?? '');
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${detail}`);
  }
}
