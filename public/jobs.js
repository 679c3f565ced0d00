// Live job list for the downloads page: listens to the named events of /v1/jobs/events and
// keeps one row per job, with the controls its state allows.
document.addEventListener('alpine:init', () => {
  window.Alpine.data('jobQueue', () => ({
    jobs: [],
    error: '',
    source: null,
    init() {
      this.source = new EventSource('/v1/jobs/events');
      this.source.addEventListener('init', (e) => {
        this.jobs = JSON.parse(e.data).jobs;
      });
      const upsert = (e) => {
        const { job } = JSON.parse(e.data);
        const i = this.jobs.findIndex((j) => j.id === job.id);
        if (i >= 0) this.jobs[i] = job;
        else this.jobs.push(job);
      };
      this.source.addEventListener('added', upsert);
      this.source.addEventListener('updated', upsert);
      this.source.addEventListener('removed', (e) => {
        const { job } = JSON.parse(e.data);
        this.jobs = this.jobs.filter((j) => j.id !== job.id);
      });
    },
    destroy() {
      this.source?.close();
    },
    percent(job) {
      return job.progressPercent >= 0 ? `${Math.floor(job.progressPercent)}%` : `${Math.round(job.progress / 1024)} KiB`;
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
      await fetch('/v1/jobs/clearCompleted', { method: 'POST', headers: { accept: 'application/json' } });
    },
  }));
});
