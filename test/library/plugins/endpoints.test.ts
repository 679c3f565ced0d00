// library-plugins.md §32.3 sandbox and runtime (T-032 … T-039), §32.4 JSON endpoints
// (T-040 … T-049), §32.6 key-value store (T-056 … T-060), §32.18 helpers (T-135, T-136), and
// runaway plugin code: loops and memory bombs are cut off and the service stays up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWithPlugins, type PluginTestLibrary } from '../../helpers/plugins.js';

const KV_BODY = `
function init()
  mah.api("POST", "set", function(ctx) local r = mah.json.decode(ctx.body); mah.kv.set(r.key, r.value); ctx.json({ ok = true }) end)
  mah.api("GET", "get", function(ctx) local v = mah.kv.get(ctx.query.key); ctx.json({ found = v ~= nil, value = v }) end)
  mah.api("POST", "delete", function(ctx) mah.kv.delete(mah.json.decode(ctx.body).key); ctx.json({ ok = true }) end)
  mah.api("GET", "list", function(ctx) ctx.json({ keys = mah.kv.list(ctx.query.prefix) }) end)
  mah.api("POST", "cas", function(ctx)
    local r = mah.json.decode(ctx.body)
    local expected = r.expected
    if r.absent then expected = mah.kv.ABSENT end
    ctx.json({ written = mah.kv.compare_and_set(r.key, expected, r.value) })
  end)
  mah.api("POST", "huge", function(ctx)
    local ok, err = pcall(mah.kv.set, "huge", string.rep("x", mah.kv.max_value_size))
    ctx.json({ ok = ok, err = err, max = mah.kv.max_value_size })
  end)
end`;

const plugins: Record<string, string> = {
  'echo-api': `plugin = { name = "echo-api", version = "1.0" }
function init()
  mah.api("GET", "echo", function(ctx)
    ctx.json({ method = ctx.method, path = ctx.path, query = ctx.query, headers = ctx.headers,
               params_empty = next(ctx.params) == nil, super = ctx.principal.superUser })
  end)
  mah.api("POST", "echo", function(ctx)
    ctx.status(201)
    ctx.json({ got = mah.json.decode(ctx.body or "null") })
  end)
  mah.api("PUT", "echo", function(ctx) ctx.json({ replaced = mah.json.decode(ctx.body or "null") }) end)
  mah.api("DELETE", "echo", function(ctx) ctx.status(204) end)
  mah.api("POST", "refuse", function(ctx) mah.abort("input rejected") end)
  mah.api("POST", "refuse-422", function(ctx) ctx.status(422); mah.abort("bad field") end)
  mah.api("GET", "boom", function(ctx) error("deliberate failure") end)
  mah.api("GET", "a/b/c", function(ctx) ctx.json({ deep = true }) end)
  mah.api("GET", "spin", function(ctx) while true do end end, { timeout = 1 })
  mah.api("POST", "size", function(ctx) ctx.json({ bytes = #(ctx.body or "") }) end)
  mah.api("POST", "raw", function(ctx) ctx.json({ body = ctx.body, params_empty = next(ctx.params) == nil }) end)
  mah.api("GET", "shapes", function(ctx)
    local k = ctx.query.kind
    if k == "empty" then ctx.json({})
    elseif k == "array" then ctx.json({ 1, 2 })
    elseif k == "null" then ctx.json(nil)
    else
      local seven = mah.json.decode("7")
      ctx.json({ n = seven, half = 3.5, s = "n=" .. seven, t = math.type(seven) })
    end
  end)
  mah.api("GET", "bomb", function(ctx) local s = string.rep("x", 1024 * 1024 * 1024) ctx.json({ n = #s }) end)
  mah.api("GET", "grow", function(ctx) local t = {} for i = 1, 1e9 do t[i] = string.rep("x", 1024) .. i end end)
end`,
  sandbox: `plugin = { name = "sandbox" }
function init()
  mah.api("GET", "t", function(ctx)
    ctx.json({ os = type(os), io = type(io), debug = type(debug), package = type(package), require = type(require),
      load = type(load), loadstring = type(loadstring), dofile = type(dofile), loadfile = type(loadfile),
      string = type(string), coroutine = type(coroutine), unpack = type(unpack) })
  end)
end`,
  serial: `plugin = { name = "serial" }
function init()
  mah.api("GET", "slow", function(ctx) mah.sleep(2); ctx.json({}) end)
  mah.api("GET", "fast", function(ctx) ctx.json({}) end)
  mah.api("GET", "neg", function(ctx) mah.sleep(-3); ctx.json({ ok = true }) end)
end`,
  counter: `plugin = { name = "counter" }
function init() mah.api("GET", "inc", function(ctx) n = (n or 0) + 1; ctx.json({ n = n }) end) end`,
  co: `plugin = { name = "co", api_version = 1, capabilities = { "kv", "api" } }
function init()
  mah.api("GET", "t", function(ctx)
    local gen = coroutine.wrap(function()
      mah.kv.set("co", "inside")
      coroutine.yield(mah.kv.get("co"))
      coroutine.yield("second")
    end)
    ctx.json({ a = gen(), b = gen() })
  end)
end`,
  twice: `plugin = { name = "twice" }
function init()
  mah.api("GET", "v", function(ctx) ctx.json({ which = 1 }) end)
  mah.api("GET", "v", function(ctx) ctx.json({ which = 2 }) end)
end`,
  'bad-method': 'plugin = { name = "bad-method" }\nfunction init() mah.api("PATCH", "x", function() end) end',
  'bad-path': 'plugin = { name = "bad-path" }\nfunction init() mah.api("GET", "/x", function() end) end',
  'kv-fixture': `plugin = { name = "kv-fixture", api_version = 1, capabilities = { "kv", "api" } }${KV_BODY}`,
  'kv-other': `plugin = { name = "kv-other", api_version = 1, capabilities = { "kv", "api" } }${KV_BODY}`,
  helpers: `plugin = { name = "helpers", api_version = 1, capabilities = { "api" } }
function init()
  mah.api("GET", "t", function(ctx)
    local nan_v, nan_e = mah.json.encode(0/0)
    local bad_v, bad_e = mah.json.decode("{bad")
    local d = mah.json.decode('{"n":3,"f":2.5,"z":null}')
    local b64, b64e = mah.util.base64.decode("!!!")
    local hx, hxe = mah.util.hex.decode("zz")
    ctx.json({
      e1 = mah.json.encode({ b = 1, a = { 3, 2 } }), e2 = mah.json.encode("<a&b>"), e3 = mah.json.encode({}),
      e4 = mah.json.encode({ 1, 2, x = 3 }), nan = nan_v == nil, nan_e = nan_e,
      dn = math.type(d.n), df = d.f, dz = d.z == nil, bad = bad_v == nil and type(bad_e) == "string", hi = mah.json.decode('"hi"'),
      sha = mah.util.sha256("abc"), hmac = mah.util.hmac_sha256("Jefe", "what do ya want for nothing?"),
      b64 = mah.util.base64.encode("Hello, World!"), b64d = mah.util.base64.decode("SGVsbG8sIFdvcmxkIQ=="),
      b64bad = b64 == nil and type(b64e) == "string", hex = mah.util.hex.encode("abc"), hexbad = hx == nil and type(hxe) == "string",
      same = mah.util.secure_compare("abc", "abc"), diff = mah.util.secure_compare("abc", "abd"),
      iso = string.match(mah.util.now_iso(), "^%d%d%d%d%-%d%d%-%d%dT%d%d:%d%d:%d%dZ$") ~= nil, now = mah.util.now(),
      esc = mah.html_escape([[<a href="x">[y]&']]),
    })
  end)
end`,
};

let lib: PluginTestLibrary;
beforeAll(async () => {
  lib = await startWithPlugins(plugins, ['-plugin-memory-limit', String(64 * 1024 * 1024)]);
  for (const n of ['echo-api', 'sandbox', 'serial', 'counter', 'co', 'twice', 'kv-fixture', 'kv-other', 'helpers']) expect((await lib.enable(n)).status, n).toBe(200);
}, 120_000);
afterAll(async () => lib?.close());

const api = (plugin: string, path: string) => `/v1/plugins/${plugin}/${path}`;

describe('sandbox and runtime', () => {
  it('T-032 removed libraries and shims', async () => {
    const r = (await lib.json<Record<string, string>>('GET', api('sandbox', 't'))).body;
    for (const [k, v] of Object.entries(r)) expect(v, k).toBe(k === 'string' || k === 'coroutine' ? 'table' : k === 'unpack' ? 'function' : 'nil');
  });

  it('T-033 host integers format like integers', async () => {
    expect((await lib.fetch(api('echo-api', 'shapes')).then((r) => r.text())).trim()).toBe('{"half":3.5,"n":7,"s":"n=7","t":"integer"}');
  });

  it('T-034 endpoint time budget; the VM stays usable', async () => {
    expect(await lib.json('GET', api('echo-api', 'spin'))).toMatchObject({ status: 504, body: { error: 'handler timed out after 1s' } });
    expect((await lib.json('GET', api('echo-api', 'echo'))).status).toBe(200);
  });

  it('T-035 one entry point per plugin at a time; other plugins unaffected', async () => {
    const started = Date.now();
    const slow = lib.json('GET', api('serial', 'slow'));
    await new Promise((r) => setTimeout(r, 100));
    const fast = lib.json('GET', api('serial', 'fast')).then(() => Date.now());
    const other = await lib.json('GET', api('counter', 'inc')).then(() => Date.now());
    const fastDone = await fast;
    await slow;
    expect(fastDone - started).toBeGreaterThanOrEqual(1900);
    expect(other).toBeLessThan(fastDone);
  });

  it('T-036 one VM: shared globals; a fresh VM after re-enable', async () => {
    const n = async () => ((await lib.json<{ n: number }>('GET', api('counter', 'inc'))).body.n);
    const first = await n();
    expect(await n()).toBe(first + 1);
    await lib.disable('counter');
    await lib.enable('counter');
    expect(await n()).toBe(1);
  });

  it('T-037 host calls inside plugin coroutines', async () => {
    expect((await lib.json('GET', api('co', 't'))).body).toEqual({ a: 'inside', b: 'second' });
  });

  it('T-038 mah.sleep with a negative time returns at once', async () => {
    expect((await lib.json('GET', api('serial', 'neg'))).body).toEqual({ ok: true });
  });

  it('T-039 memory bombs fail in the plugin only; the plugin keeps working', async () => {
    expect(await lib.json('GET', api('echo-api', 'bomb'))).toMatchObject({ status: 500, body: { error: 'internal plugin error' } });
    expect(await lib.json('GET', api('echo-api', 'grow'))).toMatchObject({ status: 500, body: { error: 'internal plugin error' } });
    expect((await lib.json('GET', api('echo-api', 'echo'))).status).toBe(200);
    expect((await lib.json('GET', api('counter', 'inc'))).status).toBe(200);
    expect((await lib.json('GET', '/v1/tags')).status).toBe(200);
  }, 60_000);
});

describe('JSON endpoints', () => {
  it('T-040 GET with query parameters', async () => {
    const r = await lib.json<Record<string, unknown>>('GET', api('echo-api', 'echo?msg=hello&count=5&tag=a&tag=b&csrf_token=zz'));
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('application/json');
    expect(r.body).toMatchObject({ method: 'GET', query: { msg: 'hello', count: '5', tag: ['a', 'b'] }, params_empty: true, super: true });
    expect((r.body.query as Record<string, unknown>).csrf_token).toBeUndefined();
    expect(r.body.path as string).toMatch(/^\/v1\/plugins\/echo-api\/echo\?/);
  });

  it('T-041 POST, PUT, DELETE', async () => {
    expect(await lib.json('POST', api('echo-api', 'echo'), { name: 'test', value: 42 })).toMatchObject({ status: 201, body: { got: { name: 'test', value: 42 } } });
    expect(await lib.json('PUT', api('echo-api', 'echo'), { updated: true })).toMatchObject({ status: 200, body: { replaced: { updated: true } } });
    const del = await lib.fetch(api('echo-api', 'echo'), { method: 'DELETE' });
    expect(del.status).toBe(204);
    expect(await del.text()).toBe('');
  });

  it('T-042 routing errors', async () => {
    expect(await lib.json('PATCH', api('echo-api', 'echo'))).toMatchObject({ status: 405, body: { error: 'method not allowed' } });
    expect(await lib.json('GET', api('echo-api', 'refuse'))).toMatchObject({ status: 405, body: { error: 'method not allowed' } });
    expect(await lib.json('GET', api('echo-api', 'nope'))).toMatchObject({ status: 404, body: { error: 'endpoint not found' } });
    expect(await lib.json('GET', api('no-such-plugin', 'x'))).toMatchObject({ status: 404, body: { error: 'plugin not found' } });
    expect(await lib.json('GET', '/v1/plugins/manage/x')).toMatchObject({ status: 404, body: { error: 'plugin not found' } });
    expect(await lib.json('GET', api('echo-api', 'a/b/c'))).toMatchObject({ status: 200, body: { deep: true } });
  });

  it('T-043 abort and errors; the Lua error text stays in the server log', async () => {
    expect(await lib.json('POST', api('echo-api', 'refuse'))).toMatchObject({ status: 400, body: { error: 'input rejected' } });
    expect(await lib.json('POST', api('echo-api', 'refuse-422'))).toMatchObject({ status: 422, body: { error: 'bad field' } });
    expect(await lib.json('GET', api('echo-api', 'boom'))).toMatchObject({ status: 500, body: { error: 'internal plugin error' } });
    expect(lib.logs.some((l) => l.includes('deliberate failure'))).toBe(true);
  });

  it('T-044 body size', async () => {
    const ok = await lib.fetch(api('echo-api', 'size'), { method: 'POST', body: 'x'.repeat(1_048_576), headers: { 'content-type': 'text/plain' } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ bytes: 1_048_576 });
    const big = await lib.fetch(api('echo-api', 'size'), { method: 'POST', body: 'x'.repeat(1_048_577), headers: { 'content-type': 'text/plain' } });
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual({ error: 'request body too large' });
  });

  it('T-045 credentials never reach the plugin', async () => {
    const r = await lib.json<{ headers: Record<string, unknown> }>('GET', api('echo-api', 'echo'), undefined, {
      Authorization: 'Bearer abc',
      Cookie: 's=1',
      'X-CSRF-Token': 't',
      'Proxy-Authorization': 'x',
      'X-Trace': '42',
    });
    expect(r.body.headers['x-trace']).toBe('42');
    for (const h of ['authorization', 'cookie', 'x-csrf-token', 'proxy-authorization']) expect(r.body.headers[h], h).toBeUndefined();
  });

  it('T-046 response shapes', async () => {
    expect(await lib.fetch(api('echo-api', 'shapes?kind=empty')).then((r) => r.text())).toBe('{}\n');
    expect(await lib.fetch(api('echo-api', 'shapes?kind=array')).then((r) => r.text())).toBe('[1,2]\n');
    const n = await lib.fetch(api('echo-api', 'shapes?kind=null'));
    expect(n.status).toBe(200);
    expect(await n.text()).toBe('null\n');
  });

  it('T-047 re-registration replaces; bad registrations fail the enable', async () => {
    expect((await lib.json('GET', api('twice', 'v'))).body).toEqual({ which: 2 });
    expect((await lib.enable('bad-method')).body.error).toContain('method must be GET, POST, PUT, or DELETE');
    expect((await lib.enable('bad-path')).body.error).toContain('invalid api path');
  });

  it('T-048 JSON endpoints do not decode forms', async () => {
    const r = await lib.form(api('echo-api', 'echo'), [['a', '1']]);
    expect(r.status).toBe(201);
    expect(await r.json()).toEqual({});
    const raw = await lib.form(api('echo-api', 'raw'), [['a', '1']]);
    expect(await raw.json()).toEqual({ body: 'a=1', params_empty: true });
  });

  it('T-049 disabled plugin', async () => {
    await lib.disable('twice');
    expect(await lib.json('GET', api('twice', 'v'))).toMatchObject({ status: 404, body: { error: 'plugin not found' } });
  });
});

describe('key-value store', () => {
  const set = (key: string, value: unknown, plugin = 'kv-fixture') => lib.json('POST', api(plugin, 'set'), { key, value });
  const get = async (key: string, plugin = 'kv-fixture') => (await lib.json('GET', api(plugin, `get?key=${encodeURIComponent(key)}`))).body;
  const list = async (prefix?: string, plugin = 'kv-fixture') => (await lib.json('GET', api(plugin, prefix === undefined ? 'list' : `list?prefix=${encodeURIComponent(prefix)}`))).body;
  const cas = async (body: unknown) => (await lib.json<{ written: boolean }>('POST', api('kv-fixture', 'cas'), body)).body.written;

  it('T-056 round trips', async () => {
    await set('greeting', 'hello world');
    expect(await get('greeting')).toEqual({ found: true, value: 'hello world' });
    await set('n', 42);
    expect(await get('n')).toEqual({ found: true, value: 42 });
    await set('prefs', { theme: 'dark', size: 3 });
    expect(await get('prefs')).toEqual({ found: true, value: { theme: 'dark', size: 3 } });
    expect(await get('missing')).toEqual({ found: false });
    await set('greeting', 'bye');
    expect(await get('greeting')).toEqual({ found: true, value: 'bye' });
    await lib.json('POST', api('kv-fixture', 'delete'), { key: 'prefs' });
    expect(await get('prefs')).toEqual({ found: false });
    expect((await lib.json('POST', api('kv-fixture', 'delete'), { key: 'never' })).status).toBe(200);
  });

  it('T-060 isolation', async () => {
    expect(await get('greeting', 'kv-other')).toEqual({ found: false });
    expect(await list(undefined, 'kv-other')).toEqual({ keys: {} });
  });

  it('T-057 listing is literal, case-sensitive and sorted', async () => {
    for (const k of ['greeting', 'n']) await lib.json('POST', api('kv-fixture', 'delete'), { key: k });
    for (const k of ['ltest:cat:images', 'ltest:a', 'other', 'ltest:cat:docs', 'l%x', 'LTEST:z']) await set(k, 1);
    expect(await list('ltest:')).toEqual({ keys: ['ltest:a', 'ltest:cat:docs', 'ltest:cat:images'] });
    expect(((await list('ltest:cat:')) as { keys: string[] }).keys).toHaveLength(2);
    expect(await list('l%')).toEqual({ keys: ['l%x'] });
    expect(await list('l_')).toEqual({ keys: {} });
    expect(await list()).toEqual({ keys: ['LTEST:z', 'l%x', 'ltest:a', 'ltest:cat:docs', 'ltest:cat:images', 'other'] });
  });

  it('T-058 compare-and-set', async () => {
    expect(await cas({ key: 'c', absent: true, value: 1 })).toBe(true);
    expect(await cas({ key: 'c', absent: true, value: 9 })).toBe(false);
    expect(await get('c')).toEqual({ found: true, value: 1 });
    expect(await cas({ key: 'c', expected: 1, value: 2 })).toBe(true);
    expect(await cas({ key: 'c', expected: 1, value: 3 })).toBe(false);
    expect(await get('c')).toEqual({ found: true, value: 2 });
    await set('o', { a: 2, b: 1 });
    expect(await cas({ key: 'o', expected: { b: 1, a: 2 }, value: 5 })).toBe(true);
    await set('z', null);
    expect(await get('z')).toEqual({ found: false });
    expect(((await list()) as { keys: string[] }).keys).toContain('z');
    expect(await cas({ key: 'z', expected: null, value: 5 })).toBe(true);
    expect(await cas({ key: 'nothing', expected: null, value: 5 })).toBe(false);
  });

  it('T-059 size limit', async () => {
    const r = (await lib.json<{ ok: boolean; err: string; max: number }>('POST', api('kv-fixture', 'huge'))).body;
    expect(r.ok).toBe(false);
    expect(r.err).toContain('exceeds maximum of 8388608 bytes');
    expect(r.max).toBe(8388608);
  }, 60_000);
});

describe('always-installed helpers', () => {
  it('T-135 JSON and T-136 util', async () => {
    const r = (await lib.json<Record<string, unknown>>('GET', api('helpers', 't'))).body;
    expect(r).toMatchObject({
      e1: '{"a":[3,2],"b":1}',
      e2: '"\\u003ca\\u0026b\\u003e"',
      e3: '{}',
      e4: '{"1":1,"2":2,"x":3}',
      nan: true,
      dn: 'integer',
      df: 2.5,
      dz: true,
      bad: true,
      hi: 'hi',
      sha: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
      hmac: '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
      b64: 'SGVsbG8sIFdvcmxkIQ==',
      b64d: 'Hello, World!',
      b64bad: true,
      hex: '616263',
      hexbad: true,
      same: true,
      diff: false,
      iso: true,
      esc: '&lt;a href=&quot;x&quot;&gt;&#91;y&#93;&amp;&#39;',
    });
    expect(r.nan_e).toContain('unsupported value');
    expect(Math.abs((r.now as number) - Date.now() / 1000)).toBeLessThan(5);
  });
});
