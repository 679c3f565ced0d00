// The drop/paste upload target of resource, note and group pages (public/upload.js; companion
// §12.5). It is also a plain upload form, so it works without script, and the layout drops it
// for viewers who may not upload (it posts to /v1/resource).
import { h, type SafeHtml } from '../../core/html/jsx.js';

export function UploadTarget(props: { ownerId?: number | null; noteId?: number; groupId?: number; where: string }): SafeHtml {
  return (
    <form method="post" action="/v1/resource" enctype="multipart/form-data" id="upload-target" class="upload-target card" data-owner-id={props.ownerId ?? undefined} data-note-id={props.noteId} data-group-id={props.groupId}>
      {props.ownerId ? <input type="hidden" name="OwnerId" value={props.ownerId} /> : null}
      {props.noteId ? <input type="hidden" name="Notes" value={props.noteId} /> : null}
      {props.groupId ? <input type="hidden" name="Groups" value={props.groupId} /> : null}
      <p class="upload-hint">
        Drop files or paste anywhere on this page to add them {props.where}.{' '}
        <label class="upload-choose-label">
          <span class="visually-hidden">Files to upload</span>
          <input type="file" name="resource" multiple class="upload-files" />
        </label>{' '}
        <button type="submit" class="secondary upload-submit">
          Upload
        </button>
      </p>
      <script src="/public/upload.js" defer></script>
    </form>
  );
}
