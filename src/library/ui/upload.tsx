// The drop/paste upload target of resource, note and group pages (public/upload.js; companion
// §12.5). It is also a plain upload form, so it works without script, and the layout drops it
// (dialog included) for viewers who may not upload (it posts to /v1/resource). With script,
// files dropped, pasted or chosen first open the preview dialog below, where more can be added
// and optional tags, resource category and series set for all of them, before anything is sent.
import { h, type SafeHtml } from '../../core/html/jsx.js';
import { Field, Picker } from './components.js';

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
      <dialog class="upload-dialog" id="upload-dialog" aria-labelledby="upload-dialog-title" aria-describedby="upload-dialog-hint" data-testid="upload-dialog">
        <h2 id="upload-dialog-title">Upload files</h2>
        <p id="upload-dialog-hint" class="upload-hint">
          They are added {props.where}. Paste or drop more files to add them to this batch.
        </p>
        <ul class="upload-preview" aria-label="Files to upload" data-testid="upload-preview"></ul>
        <div class="upload-options">
          <Picker label="Tags" name="Tags" source="/v1/tags/suggest" selected={[]} />
          <Picker label="Resource category" name="ResourceCategoryId" source="/v1/resourceCategories" multiple={false} selected={[]} hint="Detected from the file when left empty." />
          <Field label="Series slug" name="SeriesSlug" hint="Creates the series when it does not exist." />
        </div>
        <ul class="upload-list" aria-label="Uploads"></ul>
        <p class="upload-summary" role="status"></p>
        <div class="upload-actions">
          <button type="button" class="upload-start">
            Upload
          </button>
          <button type="button" class="secondary upload-cancel">
            Cancel
          </button>
        </div>
      </dialog>
      <script src="/public/upload.js" defer></script>
    </form>
  );
}
