// GET /status: liveness for clients, without a key and without any clip, tag or key data.
import { API, type ClipRoutes, type RequestStats } from '../http/routes.js';

export interface ListenerInfo {
  port: number;
  bindAll: boolean;
}

export function registerStatusRoute(routes: ClipRoutes, listener: ListenerInfo, stats: RequestStats): void {
  routes.add({
    method: 'GET',
    path: `${API}/status`,
    tag: 'status',
    summary: 'Whether the API runs, where, and how many authenticated requests it served',
    needs: 'none',
    handler: async () => ({
      running: true,
      port: listener.port,
      bind_all: listener.bindAll,
      // The bind address 0.0.0.0 is not a usable client address.
      url: `http://127.0.0.1:${listener.port}`,
      request_count: stats.requestCount,
    }),
  });
}
