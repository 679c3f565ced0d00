// Note-type template slots on note pages and share pages (companion §5.1, §5.9). Templates are
// trusted, editor-authored HTML. Shortcodes arrive with the template engine; until then a slot's
// text is emitted as written, and these are the one place both pages call, so the engine (with
// its restricted share mode: no [mrql], no plugin shortcodes, read-only [meta]) plugs in here.
import { raw, type SafeHtml } from '../../core/html/jsx.js';

export function templateHtml(template: string, _mode: 'page' | 'share'): SafeHtml {
  return raw(template);
}

/** CSS inside <style>: a "</style" in the text must not close the element early. */
export function styleText(css: string): SafeHtml {
  return raw(css.replace(/<\/(style)/gi, '<\\/$1'));
}
