// The HTML listing of a tag-server level (companion §9.2): the tag's full name, then folders
// (child tags) and files. Every name goes through the escaping JSX runtime.
import { h, render } from '../../core/html/jsx.js';

export interface ListingEntry {
  name: string;
  kind: 'folder' | 'file';
  contentType: string;
  size: number;
}

/** N B below 1024, else one decimal with KB, MB, GB in steps of 1024. */
export function humanSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

const STYLE = 'body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:56rem;padding:0 1rem}' +
  'table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3rem .6rem;border-bottom:1px solid #ddd}' +
  'td.size{text-align:right;white-space:nowrap}';

export function listingPage(tagName: string, entries: readonly ListingEntry[]): string {
  const rows = entries.map((e) =>
    e.kind === 'folder' ? (
      <tr>
        <td>
          📁 <a href={`${encodeURIComponent(e.name)}/`}>{e.name}/</a>
        </td>
        <td>folder</td>
        <td class="size"></td>
      </tr>
    ) : (
      <tr>
        <td>
          <a href={encodeURIComponent(e.name)}>{e.name}</a>
        </td>
        <td>{e.contentType}</td>
        <td class="size">{humanSize(e.size)}</td>
      </tr>
    ),
  );
  return `<!DOCTYPE html>${render(
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{tagName}</title>
        <style>{STYLE}</style>
      </head>
      <body>
        <h1>{tagName}</h1>
        {entries.length === 0 ? (
          <p>No files.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Type</th>
                <th>Size</th>
              </tr>
            </thead>
            <tbody>{rows}</tbody>
          </table>
        )}
      </body>
    </html>,
  )}`;
}
