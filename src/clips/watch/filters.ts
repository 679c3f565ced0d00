// Which files a watch folder imports (companion §7.2): everything, the union of extension
// presets, or a custom pattern searched in the base filename (an empty pattern matches all).
import { extname } from 'node:path';
import { compileFilterRegex } from './regex.js';

export const FILTER_MODES = ['all', 'presets', 'custom'] as const;
export type FilterMode = (typeof FILTER_MODES)[number];

export const PRESETS: Record<string, readonly string[]> = {
  images: ['.jpg', '.jpeg', '.png', '.gif', '.webp', '.heic', '.bmp', '.tiff', '.svg'],
  documents: ['.pdf', '.doc', '.docx', '.txt', '.md', '.rtf', '.odt', '.xls', '.xlsx'],
  videos: ['.mp4', '.mov', '.avi', '.mkv', '.webm', '.m4v', '.wmv'],
};

export interface FolderFilter {
  filter_mode: FilterMode;
  filter_presets: readonly string[];
  filter_regex: string;
}

const compiled = new Map<string, RegExp>();

function patternOf(source: string): RegExp {
  let re = compiled.get(source);
  if (!re) {
    re = compileFilterRegex(source);
    // Patterns are few (one per folder); the bound only keeps edits from accumulating.
    if (compiled.size > 1000) compiled.clear();
    compiled.set(source, re);
  }
  return re;
}

export function fileMatches(filter: FolderFilter, name: string): boolean {
  switch (filter.filter_mode) {
    case 'all':
      return true;
    case 'presets': {
      const ext = extname(name).toLowerCase();
      return ext !== '' && filter.filter_presets.some((p) => PRESETS[p]?.includes(ext));
    }
    case 'custom':
      return filter.filter_regex === '' || patternOf(filter.filter_regex).test(name);
  }
}

/** Dot-files are never imported (companion §7.3). */
export const isHidden = (name: string) => name.startsWith('.');
