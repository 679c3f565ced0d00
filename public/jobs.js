// Live job list for the downloads page: listens to the named events of /v1/jobs/events and
// keeps one row per job, with the controls its state allows. Plugin action jobs (action_*
// events) get their own rows; they have no controls, only "clear finished" dismisses them.
const FINISHED = ['completed', 'failed', 'cancelled'];

document.addEventListener('alpine:init', () => {
  window.Alpine.data('jobQueue', () => ({
    jobs: [],
    actionJobs: [],
    announcement: '',
    error: '',
    source: null,
    init() {
      this.source = new EventSource('/v1/jobs/events');
      this.source.addEventListener('init', (e) => {
        const data = JSON.parse(e.data);
        this.jobs = data.jobs;
        this.actionJobs = data.actionJobs || [];
      });
      const upsertInto = (list, name) => (e) => {
        const { job } = JSON.parse(e.data);
        const i = this[list].findIndex((j) => j.id === job.id);
        if (i >= 0 && this[list][i].status !== job.status) this.announce(job, name(job));
        if (i >= 0) this[list][i] = job;
        else this[list].push(job);
      };
      const removeFrom = (list) => (e) => {
        const { job } = JSON.parse(e.data);
        this[list] = this[list].filter((j) => j.id !== job.id);
      };
      const downloadName = (job) => job.url || job.source;
      this.source.addEventListener('added', upsertInto('jobs', downloadName));
      this.source.addEventListener('updated', upsertInto('jobs', downloadName));
      this.source.addEventListener('removed', removeFrom('jobs'));
      const actionName = (job) => job.label;
      this.source.addEventListener('action_added', upsertInto('actionJobs', actionName));
      this.source.addEventListener('action_updated', upsertInto('actionJobs', actionName));
      this.source.addEventListener('action_removed', removeFrom('actionJobs'));
    },
    destroy() {
      this.source?.close();
    },
    // Only the end of a job is announced: progress ticks would flood a screen reader.
    announce(job, name) {
      if (FINISHED.includes(job.status)) this.announcement = `${name}: ${job.status}`;
    },
    percent(job) {
      return job.progressPercent >= 0 ? `${Math.floor(job.progressPercent)}%` : `${Math.round(job.progress / 1024)} KiB`;
    },
    // The message already summarises a result table (its `message`, else "Completed"); the
    // table itself is never shown.
    actionText(job) {
      return typeof job.message === 'string' ? job.message : '';
    },
    can(job, action) {
      const s = job.status;
      if (action === 'cancel') return ['pending', 'downloading', 'processing', 'paused'].includes(s);
      if (action === 'pause') return job.source === 'download' && ['pending', 'downloading'].includes(s);
      if (action === 'resume') return s === 'paused';
      if (action === 'retry') return ['failed', 'cancelled'].includes(s);
      return false;
    },
    async control(job, action) {
      const res = await fetch(`/v1/jobs/${action}?id=${encodeURIComponent(job.id)}`, { method: 'POST', headers: { accept: 'application/json' } });
      this.error = res.ok ? '' : (await res.json()).error;
    },
    async clear() {
      const res = await fetch('/v1/jobs/clearCompleted', { method: 'POST', headers: { accept: 'application/json' } });
      if (res.ok) {
        const { cleared } = await res.json();
        this.announcement = cleared === 1 ? 'Cleared 1 finished job.' : `Cleared ${cleared} finished jobs.`;
      }
    },
  }));
});
