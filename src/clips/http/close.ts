// Graceful stop of a listener (companion §1.3, §9.1): no new connections, idle ones closed,
// in-flight requests get `graceMs`, then every remaining connection is cut.
import type { FastifyInstance } from 'fastify';

export async function closeGracefully(app: FastifyInstance, graceMs: number): Promise<void> {
  const force = setTimeout(() => app.server.closeAllConnections(), graceMs);
  try {
    await app.close();
  } finally {
    clearTimeout(force);
  }
}
