// The plugins that are loaded right now, shared by the manager that loads them and by every
// page, shortcode engine and block renderer that shows what they registered. Built once by
// features.ts before the features that read it, so no reader needs the manager itself (the
// manager depends on those features' services for mah.db).
import type { Principal } from '../auth/principal.js';
import { isScoped } from '../auth/principal.js';
import type { PluginRegistry } from './registry.js';

/** What readers need of a loaded plugin. */
export interface CataloguedPlugin {
  readonly name: string;
  readonly revoked: boolean;
  readonly registry: PluginRegistry;
  /** In-memory settings (§6.4); null once unloaded. */
  readonly settings: Record<string, unknown> | null;
}

export class PluginCatalogue<P extends CataloguedPlugin = CataloguedPlugin> {
  /** Loaded plugins in the order they were enabled (the manager writes it). */
  readonly loaded = new Map<string, P>();
  /** Plugins opened to group-limited principals (§26.2; the manager writes it). */
  readonly scopedOpen = new Set<string>();

  /** `available` is false with -plugins-disabled: every plugin surface renders as unavailable. */
  constructor(readonly available: boolean) {}

  get(name: string): P | undefined {
    const p = this.loaded.get(name);
    return p && !p.revoked ? p : undefined;
  }

  /** Loaded plugins in enable order. */
  active(): P[] {
    return [...this.loaded.values()].filter((p) => !p.revoked);
  }

  /** Whether a group-limited principal may reach this plugin (§26.2). */
  openToScoped(name: string): boolean {
    return this.scopedOpen.has(name) && this.get(name) !== undefined;
  }

  /** Whether this viewer may reach the plugin's code paths (§26.2). */
  reachableBy(principal: Principal | undefined, name: string): boolean {
    return !principal || !isScoped(principal) || this.openToScoped(name);
  }
}
