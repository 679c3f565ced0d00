// PDF first-page images through poppler-utils' `pdftoppm` (Debian package poppler-utils), when
// it is installed: looked up once at start-up, and without it PDFs keep the generic file icon.
// Arguments go as an array (never through a shell) and every run has a timeout.
import { onPath, run } from './ffmpeg.js';

export interface PdfTool {
  pdftoppm: string;
}

export function locatePdfTool(): PdfTool | null {
  const found = onPath('pdftoppm');
  return found ? { pdftoppm: found } : null;
}

/** The first page as a PNG scaled to fit a `box`-pixel square; pdftoppm writes to stdout without an output root. The input is an absolute path, so it cannot pass for an option. */
export async function pdfFirstPage(tool: PdfTool, input: string, box: number, timeoutMs: number): Promise<Buffer> {
  const png = await run(tool.pdftoppm, ['-f', '1', '-l', '1', '-singlefile', '-png', '-scale-to', String(box), input], timeoutMs);
  if (png.length === 0) throw new Error('pdftoppm produced no image');
  return png;
}
