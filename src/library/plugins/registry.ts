// Everything one loaded plugin registered from init() and later (library-plugins.md §16–§25).
// Disabling a plugin drops its registry whole, so nothing it registered stays callable.
import type { LuaFunctionRef } from '../../core/lua/index.js';
import { RenderRegistry } from './render-registry.js';

export interface ApiEndpoint {
  handler: LuaFunctionRef;
  timeoutMs: number;
}

export interface DocEntry {
  name: string;
  label: string;
  description: string;
  category: string;
  attrs: unknown[];
  examples: unknown[];
  notes: string[];
}

export interface PageEntry {
  handler: LuaFunctionRef;
}

export interface MenuEntry {
  label: string;
  path: string;
}

export class PluginRegistry {
  /** "METHOD path" → endpoint (last registration wins). */
  readonly apis = new Map<string, ApiEndpoint>();
  /** event → handlers in registration order. */
  readonly hooks = new Map<string, LuaFunctionRef[]>();
  readonly pages = new Map<string, PageEntry>();
  readonly menus: MenuEntry[] = [];
  readonly docs: DocEntry[] = [];
  /** Shortcodes, block and display types, injections (§22–§25). */
  readonly render = new RenderRegistry();

  apiFor(method: string, path: string): ApiEndpoint | undefined {
    return this.apis.get(`${method} ${path}`);
  }

  /** Whether some method is registered for the path (405 instead of 404). */
  hasPath(path: string): boolean {
    for (const key of this.apis.keys()) if (key.slice(key.indexOf(' ') + 1) === path) return true;
    return false;
  }

  addHook(event: string, handler: LuaFunctionRef): void {
    const list = this.hooks.get(event) ?? [];
    list.push(handler);
    this.hooks.set(event, list);
  }

  /** Lets the VM forget every function it handed over. */
  release(): void {
    for (const e of this.apis.values()) e.handler.release();
    for (const list of this.hooks.values()) for (const h of list) h.release();
    for (const p of this.pages.values()) p.handler.release();
    this.apis.clear();
    this.hooks.clear();
    this.pages.clear();
    this.menus.length = 0;
    this.docs.length = 0;
    this.render.release();
  }
}
