// The library's filesystems (companion §1.3): the main root (-file-save-path) and the named
// alternatives (-alt-fs / FILE_ALT_*), addressed by their key (`PathName` on requests,
// `storage_location` on rows; null or empty is the main one). Previews live beside the files
// of the main root in a folder that is never served.
import { join } from 'node:path';
import { badRequest } from '../../core/http/errors.js';
import { FileStore } from '../../core/storage/file-store.js';
import type { LibraryConfig } from '../config.js';

export const PREVIEW_DIR = '.previews';

export class Filesystems {
  readonly main: FileStore;
  readonly alt = new Map<string, FileStore>();

  constructor(config: Pick<LibraryConfig, 'filePath' | 'altFs'>) {
    this.main = new FileStore(config.filePath);
    for (const [key, path] of Object.entries(config.altFs)) this.alt.set(key, new FileStore(path));
  }

  /** The store for a PathName / storage_location; unknown keys are a client error. */
  get(key: string | null | undefined): FileStore {
    if (key === null || key === undefined || key === '') return this.main;
    const store = this.alt.get(key);
    if (!store) throw badRequest(`unknown PathName "${key}": configured filesystems are ${['(main)', ...this.alt.keys()].join(', ')}`);
    return store;
  }

  /** Storage key as stored on a row: null for the main filesystem. */
  static keyOf(pathName: string | null | undefined): string | null {
    return pathName === undefined || pathName === null || pathName === '' ? null : pathName;
  }

  /** The URL a stored file is served under: /files/<location> or /<key>/<location>. */
  static url(key: string | null, location: string): string {
    const path = location.replace(/^\/+/, '').split('/').map(encodeURIComponent).join('/');
    return `/${key ?? 'files'}/${path}`;
  }

  get previewRoot(): string {
    return join(this.main.root, PREVIEW_DIR);
  }

  async sweepTemp(): Promise<void> {
    await this.main.sweepTemp();
    for (const s of this.alt.values()) await s.sweepTemp();
  }
}
