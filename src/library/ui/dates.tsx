// The one date format of the pages: "25 Nov 2026, 18:44" in UTC (the server's stored time),
// shown as a relative time ("3 h ago") while recent, with the exact time always in the
// tooltip and the machine-readable value in `datetime`.
import { h, type SafeHtml } from '../../core/html/jsx.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

/** "25 Nov 2026, 18:44 UTC"; the input unchanged when it is not a date. */
export function formatDate(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}

/** "just now", "5 min ago", "3 h ago", "2 d ago"; in the future "in 4 h". */
export function relativeTime(iso: string, now = Date.now()): string {
  const t = new Date(iso).getTime();
  if (Number.isNaN(t)) return iso;
  const s = Math.round((now - t) / 1000);
  const a = Math.abs(s);
  const say = (text: string) => (s >= 0 ? `${text} ago` : `in ${text}`);
  if (a < 60) return 'just now';
  if (a < 3600) return say(`${Math.floor(a / 60)} min`);
  if (a < 86400) return say(`${Math.floor(a / 3600)} h`);
  return say(`${Math.floor(a / 86400)} d`);
}

const RECENT_MS = 7 * 86400_000;

/** A timestamp: relative while under a week old, else the date; the exact time in the tooltip. */
export function When(props: { at: string | null | undefined; now?: number }): SafeHtml {
  if (!props.at) return <span>—</span>;
  const now = props.now ?? Date.now();
  const age = Math.abs(now - new Date(props.at).getTime());
  const exact = formatDate(props.at);
  return (
    <time datetime={props.at} title={exact}>
      {age < RECENT_MS ? relativeTime(props.at, now) : exact.replace(/, \d\d:\d\d UTC$/, '')}
    </time>
  );
}
