// Graceful stop of a listener (companion §1.3, §9.1): no new connections, idle ones closed —
// also those that become idle while in-flight requests finish, since a keep-alive client that
// read its last response would otherwise hold the close open — in-flight requests get
// `graceMs`, then every remaining connection is cut.
import type { FastifyInstance } from 'fastify';

const IDLE_SWEEP_MS = 50;

export async function closeGracefully(app: FastifyInstance, graceMs: number): Promise<void> {
  const force = setTimeout(() => app.server.closeAllConnections(), graceMs);
  const sweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
  try {
    await app.close();
  } finally {
    clearTimeout(force);
    clearInterval(sweep);
  }
}
