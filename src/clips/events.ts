// Named clip-store events (companion §8.5). Services emit them after their change committed;
// the plugin host subscribes (a later issue). A listener's failure is logged, never surfaced.

export interface ClipEventMap {
  'clip:created': { id: number; content_type: string; filename: string; size: number };
  'clip:deleted': number;
  'clip:renamed': { id: number; filename: string };
  'clip:archived': { id: number };
  'clip:unarchived': { id: number };
  'tag:created': { id: number; name: string; color: string };
  'tag:updated': { id: number; name: string; color: string };
  'tag:deleted': number;
  'tag:added_to_clip': { tag_id: number; clip_id: number };
  'tag:removed_from_clip': { tag_id: number; clip_id: number };
  'watch:file_detected': { path: string; folder_id: number };
  'watch:import_complete': { clip_id: number; source_path: string; folder_id: number };
}

export type ClipEventName = keyof ClipEventMap;
type Listener = (name: ClipEventName, payload: unknown) => void;

export class ClipEvents {
  private readonly listeners: Listener[] = [];

  /** Subscribes to every event; returns the unsubscribe function. */
  subscribe(listener: Listener): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  emit<N extends ClipEventName>(name: N, payload: ClipEventMap[N]): void {
    for (const l of this.listeners) {
      try {
        l(name, payload);
      } catch (e) {
        console.error(`clip event listener failed on ${name}:`, e);
      }
    }
  }
}
