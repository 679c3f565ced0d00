// Descriptions and text blocks as sanitised Markdown (companion §5.2 item 6, §12.2): mentions
// become links to the entity (a resource mention alone on its line a card with its thumbnail);
// on the share server, which serves none of those pages, they stay plain names.
import { escapeHtml, h, raw, type SafeHtml } from '../../core/html/jsx.js';
import { renderMarkdown, type Mention } from '../../core/html/markdown.js';

const PAGE: Record<Mention['type'], string> = { group: '/group', note: '/note', resource: '/resource', tag: '/tag' };

function appMention(m: Mention, alone: boolean): string {
  const href = `${PAGE[m.type]}?id=${m.id}`;
  const name = escapeHtml(m.name || `${m.type} ${m.id}`);
  if (m.type !== 'resource') return `<a class="mention mention-${m.type}" href="${href}">${name}</a>`;
  if (alone) return `<a class="mention-card" href="${href}"><img src="/v1/resource/preview?ID=${m.id}&amp;Height=160" alt="" loading="lazy" height="160"><span>${name}</span></a>`;
  return `<a class="mention mention-resource" href="${href}"><img src="/v1/resource/preview?ID=${m.id}&amp;Height=40" alt="" loading="lazy" height="20">${name}</a>`;
}

function plainMention(m: Mention): string {
  return `<span class="mention">${escapeHtml(m.name || `${m.type} ${m.id}`)}</span>`;
}

export function markdownHtml(text: string, mode: 'app' | 'share' = 'app'): SafeHtml {
  return raw(renderMarkdown(text, { mention: mode === 'app' ? appMention : plainMention }));
}

export function Markdown(props: { text: string; class?: string; mode?: 'app' | 'share'; empty?: string }): SafeHtml {
  if (props.text.trim() === '') return props.empty ? <p class="empty">{props.empty}</p> : raw('');
  return <div class={`markdown ${props.class ?? ''}`.trim()}>{markdownHtml(props.text, props.mode)}</div>;
}
