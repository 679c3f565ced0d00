// Export and import pages: build the JSON requests from the forms, follow the jobs through the
// live job events (/v1/jobs/events), and show estimates, plans and results.

/** Calls `onJob` with every snapshot of job `id` (and, for `all`, with the whole list). */
function watchJobs(onEvent) {
  const source = new EventSource('/v1/jobs/events');
  source.addEventListener('init', (e) => onEvent('init', JSON.parse(e.data).jobs));
  for (const type of ['added', 'updated', 'removed']) {
    source.addEventListener(type, (e) => onEvent(type, [JSON.parse(e.data).job]));
  }
  return source;
}

async function jsonRequest(method, url, body) {
  const res = await fetch(url, {
    method,
    headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const data = text ? JSON.parse(text) : null;
  if (!res.ok) throw new Error((data && data.error) || `request failed (${res.status})`);
  return data;
}

document.addEventListener('alpine:init', () => {
  window.Alpine.data('exportPage', (config) => ({
    options: structuredClone(config.defaults),
    estimation: null,
    job: null,
    exports: [],
    error: '',
    source: null,
    init() {
      this.source = watchJobs((type, jobs) => {
        for (const j of jobs) {
          if (j.source !== 'group-export') continue;
          if (type === 'removed') this.exports = this.exports.filter((x) => x.id !== j.id);
          else {
            const i = this.exports.findIndex((x) => x.id === j.id);
            if (i >= 0) this.exports[i] = j;
            else this.exports.unshift(j);
          }
          if (this.job && j.id === this.job.id) this.job = j;
          if (!this.job && config.job === j.id) this.job = j;
        }
      });
    },
    destroy() {
      this.source?.close();
    },
    body() {
      const roots = new FormData(this.$refs.form)
        .getAll('rootGroupIds')
        .filter((v) => v !== '')
        .map(Number);
      return { ...this.options, relatedDepth: Number(this.options.relatedDepth) || 0, rootGroupIds: roots };
    },
    async estimate() {
      this.error = '';
      try {
        this.estimation = await jsonRequest('POST', '/v1/groups/export/estimate', this.body());
      } catch (e) {
        this.error = e.message;
      }
    },
    async submit() {
      this.error = '';
      try {
        const { jobId } = await jsonRequest('POST', '/v1/groups/export', this.body());
        this.job = this.exports.find((j) => j.id === jobId) ?? { id: jobId, status: 'pending', progressPercent: -1 };
      } catch (e) {
        this.error = e.message;
      }
    },
    until(job) {
      const done = job && job.completedAt ? Date.parse(job.completedAt) : Date.now();
      return new Date(done + config.retentionMs).toLocaleString();
    },
    bytes(n) {
      const units = ['B', 'KB', 'MB', 'GB', 'TB'];
      let v = n;
      let u = 0;
      while (v >= 1024 && u < units.length - 1) {
        v /= 1024;
        u++;
      }
      return u === 0 ? `${v} B` : `${v.toFixed(1)} ${units[u]}`;
    },
  }));

  window.Alpine.data('importPage', (config) => ({
    importId: config.importId,
    parseJob: null,
    applyJob: null,
    applyJobId: null,
    plan: null,
    result: null,
    choices: {},
    shells: {},
    dangling: {},
    excluded: [],
    options: { resource_collision_policy: 'skip', guid_collision_policy: 'merge', acknowledge_missing_hashes: false },
    uploading: null,
    busy: false,
    error: '',
    source: null,
    /** Latest snapshot of every job seen, for jobs that finish before their id is known here. */
    seen: {},
    loading: false,
    init() {
      this.source = watchJobs((type, jobs) => {
        for (const j of jobs) this.seen[j.id] = j;
        this.follow();
      });
      if (config.status === 'applied') this.loadPlan().then(() => this.loadResult());
      else if (config.status === 'ready' || config.status === 'applying' || config.status === 'failed') this.loadPlan();
    },
    follow() {
      const parse = this.seen[this.importId];
      if (parse && parse.source === 'group-import-parse') {
        this.parseJob = parse;
        if (parse.status === 'completed' && !this.plan) this.loadPlan();
      }
      const apply = this.applyJobId ? this.seen[this.applyJobId] : null;
      if (apply) {
        this.applyJob = apply;
        if (apply.status === 'completed' && !this.result) this.loadResult();
        if (['failed', 'cancelled'].includes(apply.status)) this.busy = false;
      }
    },
    destroy() {
      this.source?.close();
    },
    upload() {
      const file = this.$refs.file.files[0];
      if (!file) {
        this.error = 'Choose an archive first.';
        return;
      }
      this.error = '';
      this.busy = true;
      this.uploading = 0;
      const form = new FormData();
      form.append('file', file);
      const xhr = new XMLHttpRequest();
      xhr.open('POST', '/v1/groups/import/parse');
      xhr.setRequestHeader('accept', 'application/json');
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable) this.uploading = (e.loaded / e.total) * 100;
      };
      xhr.onload = () => {
        this.busy = false;
        this.uploading = null;
        const data = xhr.responseText ? JSON.parse(xhr.responseText) : {};
        if (xhr.status !== 202) {
          this.error = data.error || `upload failed (${xhr.status})`;
          return;
        }
        this.importId = data.jobId;
        history.replaceState(null, '', `/admin/import?id=${data.jobId}`);
        this.parseJob = { id: data.jobId, status: 'pending', progressPercent: -1 };
        this.follow();
      };
      xhr.onerror = () => {
        this.busy = false;
        this.uploading = null;
        this.error = 'the upload failed';
      };
      xhr.send(form);
    },
    async loadPlan() {
      if (this.loading) return;
      this.loading = true;
      try {
        const plan = await jsonRequest('GET', `/v1/imports/${this.importId}/plan`);
        for (const kind of Object.keys(plan.mappings)) {
          for (const m of plan.mappings[kind]) {
            this.choices[m.decision_key] = { include: true, action: m.suggestion, destination: m.destination_id ?? '', rename: '' };
          }
        }
        for (const row of this.flatten(plan.items)) if (row.item.shell) this.shells[row.item.export_id] = { action: 'create', destination: '' };
        for (const d of plan.dangling_refs) this.dangling[d.id] = { action: 'drop', destination: '' };
        this.plan = plan;
      } catch (e) {
        this.error = e.message;
      } finally {
        this.loading = false;
      }
    },
    async loadResult() {
      if (this.result) return;
      try {
        this.result = await jsonRequest('GET', `/v1/imports/${this.importId}/result`);
        this.busy = false;
      } catch (e) {
        this.error = e.message;
      }
    },
    flatten(items, depth = 0, out = []) {
      for (const item of items) {
        out.push({ item, depth });
        this.flatten(item.children, depth + 1, out);
      }
      return out;
    },
    rows() {
      return this.plan ? this.flatten(this.plan.items) : [];
    },
    toggle(id) {
      this.excluded = this.excluded.includes(id) ? this.excluded.filter((x) => x !== id) : [...this.excluded, id];
    },
    sourceName(m) {
      return m.from_category_name !== undefined ? `${m.name} (${m.from_category_name ?? '?'} → ${m.to_category_name ?? '?'})` : m.source_key;
    },
    label(key) {
      const words = { grts: 'relation types', by_guid: 'by GUID', ids: 'ids' };
      return key.replace(/grts|by_guid/g, (w) => words[w]).replace(/_/g, ' ');
    },
    destinations(m) {
      const list = m.alternatives.length ? m.alternatives : [];
      return m.destination_id && !list.some((a) => a.id === m.destination_id) ? [{ id: m.destination_id, name: m.destination_name }, ...list] : list;
    },
    decisions() {
      const mapping_actions = {};
      for (const [key, c] of Object.entries(this.choices)) {
        mapping_actions[key] = c.include
          ? { include: true, action: c.action, ...(c.action === 'map' ? { destination_id: Number(c.destination) || null } : {}), ...(c.action === 'create' && c.rename ? { rename_to: c.rename } : {}) }
          : { include: false };
      }
      const shell_group_actions = {};
      for (const [id, s] of Object.entries(this.shells)) shell_group_actions[id] = { action: s.action, destination_id: Number(s.destination) || null };
      const dangling_actions = {};
      for (const [id, d] of Object.entries(this.dangling)) dangling_actions[id] = { action: d.action, destination_id: Number(d.destination) || null };
      const parent = new FormData(this.$refs.review).get('parent_group_id');
      return {
        ...this.options,
        parent_group_id: parent ? Number(parent) : null,
        mapping_actions,
        shell_group_actions,
        dangling_actions,
        excluded_items: this.excluded,
      };
    },
    async apply() {
      this.error = '';
      this.busy = true;
      try {
        const { jobId } = await jsonRequest('POST', `/v1/imports/${this.importId}/apply`, this.decisions());
        this.applyJobId = jobId;
        this.applyJob = { id: jobId, status: 'pending', progressPercent: -1 };
        this.follow();
      } catch (e) {
        this.busy = false;
        this.error = e.message;
      }
    },
    async discard() {
      if (!confirm('Delete this staged import?')) return;
      try {
        await jsonRequest('DELETE', `/v1/imports/${this.importId}`);
        window.location.href = '/admin/import';
      } catch (e) {
        this.error = e.message;
      }
    },
  }));
});
