// What to hand sharp for a stored file. librsvg, behind sharp, resolves an SVG's relative `href`s
// against the folder of a file it reads by path, so a stored SVG could draw the files stored next
// to it (other people's files included) into a thumbnail, a hash or a plugin's result. sharp
// picks its decoder from the content, not from the type a client claimed, so the content decides
// here too: a file that may be SVG (markup, or gzip as .svgz is) is read into memory and handed
// over as bytes, which have no folder to resolve against. Other files go by path (streamed).
import { open, readFile } from 'node:fs/promises';

const HEAD_BYTES = 64;

/** True when `head` (a file's first bytes) could start an SVG document. */
export function mayBeSvg(head: Buffer): boolean {
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return true;
  if (head.length >= 2 && ((head[0] === 0xfe && head[1] === 0xff) || (head[0] === 0xff && head[1] === 0xfe))) return true;
  let i = head.length >= 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x09 || head[i] === 0x0a || head[i] === 0x0d)) i++;
  // Only blanks so far: the document may still begin further on.
  return i >= head.length ? head.length > 0 : head[i] === 0x3c;
}

export async function imageInput(input: string | Buffer): Promise<string | Buffer> {
  if (typeof input !== 'string') return input;
  const file = await open(input, 'r');
  let head: Buffer;
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(HEAD_BYTES), 0, HEAD_BYTES, 0);
    head = buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
  return mayBeSvg(head) ? readFile(input) : input;
}
