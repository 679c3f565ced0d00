// The file-descriptor calls that go through libuv's thread pool, as promises (METADATA_CALLS in
// file-store.ts says which calls go there and why): one definition for every storage module.
import { fdatasync, fsync, open } from 'node:fs';
import { promisify } from 'node:util';

export const fsyncFd: (fd: number) => Promise<void> = promisify(fsync);
export const fdatasyncFd: (fd: number) => Promise<void> = promisify(fdatasync);
export const openFd: (path: string, flags: string, mode: number) => Promise<number> = promisify(open);
