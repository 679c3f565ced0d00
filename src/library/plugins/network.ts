// Network rules of a manifest's `network` list (library-plugins.md §13.5 (a)): exact hostnames,
// wildcards, IP literals and CIDR blocks; their canonical display form, and matching a host.
import { isIP } from 'node:net';

export type NetworkRule =
  | { kind: 'host'; canonical: string }
  | { kind: 'wildcard'; canonical: string; suffix: string }
  | { kind: 'ip'; canonical: string; family: 4 | 6; value: bigint }
  | { kind: 'cidr'; canonical: string; family: 4 | 6; value: bigint; bits: number };

const HOSTNAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;
const NOT_A_RULE = 'not a hostname, wildcard, IP address or CIDR block';

export class NetworkRuleError extends Error {}

function v4ToBig(ip: string): bigint {
  return ip.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function bigToV4(v: bigint): string {
  return [24n, 16n, 8n, 0n].map((s) => String((v >> s) & 255n)).join('.');
}

/** The 128-bit value of an IPv6 address (Node validated it already). */
function v6ToBig(ip: string): bigint {
  let text = ip;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const n = v4ToBig(v4[1]);
    text = `${text.slice(0, -v4[1].length)}${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...new Array<string>(8 - h.length - t.length).fill('0'), ...t];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g || '0', 16)), 0n);
}

function bigToV6(v: bigint): string {
  const groups: string[] = [];
  for (let i = 7; i >= 0; i--) groups.push(((v >> BigInt(i * 16)) & 0xffffn).toString(16));
  // The URL serialiser writes the canonical compressed form.
  return new URL(`http://[${groups.join(':')}]/`).hostname.slice(1, -1);
}

/** IPv4-mapped IPv6 (::ffff:a.b.c.d) counts as its IPv4 address. */
function ipValue(ip: string): { family: 4 | 6; value: bigint } {
  if (isIP(ip) === 4) return { family: 4, value: v4ToBig(ip) };
  const value = v6ToBig(ip);
  if (value >> 32n === 0xffffn) return { family: 4, value: value & 0xffffffffn };
  return { family: 6, value };
}

function formatIp(family: 4 | 6, value: bigint): string {
  return family === 4 ? bigToV4(value) : bigToV6(value);
}

function looksLikeAddress(host: string): boolean {
  const labels = host.split('.');
  return labels.some((l) => /^0x[0-9a-f]*$/i.test(l)) || /^\d+$/.test(labels[labels.length - 1] ?? '');
}

function hostnameOf(raw: string, entry: string): string {
  let host = raw.toLowerCase();
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (host.length === 0 || host.length > 253 || !HOSTNAME.test(host) || looksLikeAddress(host)) {
    throw new NetworkRuleError(`network entry "${entry}" is ${NOT_A_RULE}`);
  }
  return host;
}

export function parseNetworkRule(entry: string): NetworkRule {
  const text = entry.trim();
  if (text === '') throw new NetworkRuleError('network entries must not be empty');
  if (text.includes('/')) {
    const [addr, bitsText, extra] = text.split('/');
    const family = isIP(addr);
    const bits = /^\d{1,3}$/.test(bitsText ?? '') ? Number(bitsText) : NaN;
    if (family === 0 || extra !== undefined || !(bits >= 0 && bits <= (family === 4 ? 32 : 128))) {
      throw new NetworkRuleError(`network entry "${entry}" is not a valid CIDR block`);
    }
    if (bits === 0) throw new NetworkRuleError(`network entry "${entry}" is the default route; list the hosts or blocks the plugin needs`);
    let { family: fam, value } = { family: family as 4 | 6, value: family === 4 ? v4ToBig(addr) : v6ToBig(addr) };
    let prefix = bits;
    if (fam === 6 && value >> 32n === 0xffffn && bits >= 96) {
      fam = 4;
      value &= 0xffffffffn;
      prefix = bits - 96;
      if (prefix === 0) throw new NetworkRuleError(`network entry "${entry}" is the default route; list the hosts or blocks the plugin needs`);
    }
    const width = fam === 4 ? 32 : 128;
    const hostMask = (1n << BigInt(width - prefix)) - 1n;
    if ((value & hostMask) !== 0n) {
      const fixed = `${formatIp(fam, value & ~hostMask & ((1n << BigInt(width)) - 1n))}/${prefix}`;
      throw new NetworkRuleError(`network entry "${entry}" has host bits set; write it as ${fixed}`);
    }
    return { kind: 'cidr', canonical: `${formatIp(fam, value)}/${prefix}`, family: fam, value, bits: prefix };
  }
  if (text.startsWith('[') || text.endsWith(']')) {
    const inner = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : '';
    if (isIP(inner) !== 6) throw new NetworkRuleError(`network entry "${entry}" has unmatched brackets or is not an IPv6 address`);
    const ip = ipValue(inner);
    return { kind: 'ip', canonical: formatIp(ip.family, ip.value), ...ip };
  }
  if (isIP(text)) {
    const ip = ipValue(text);
    return { kind: 'ip', canonical: formatIp(ip.family, ip.value), ...ip };
  }
  if (text.startsWith('*.')) {
    const suffix = hostnameOf(text.slice(2), entry);
    return { kind: 'wildcard', canonical: `*.${suffix}`, suffix };
  }
  return { kind: 'host', canonical: hostnameOf(text, entry) };
}

/** Canonical display forms, sorted and de-duplicated. */
export function canonicalRules(rules: readonly NetworkRule[]): string[] {
  return [...new Set(rules.map((r) => r.canonical))].sort();
}

/** Whether a rule is too broad to go with allow_private_hosts (§4.3). */
export function tooBroadForPrivate(rule: NetworkRule): boolean {
  if (rule.kind === 'wildcard') return true;
  if (rule.kind === 'cidr') return rule.family === 4 ? rule.bits < 8 : rule.bits < 32;
  return false;
}

/** Does a request host (name or IP literal, no port) match the rule? */
export function ruleMatchesHost(rule: NetworkRule, host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.$/, '');
  const family = isIP(h);
  if (family) {
    const ip = ipValue(h);
    if (rule.kind === 'ip') return rule.family === ip.family && rule.value === ip.value;
    if (rule.kind === 'cidr') return covers(rule, ip);
    return false;
  }
  if (rule.kind === 'host') return rule.canonical === h;
  if (rule.kind === 'wildcard') return h.endsWith(`.${rule.suffix}`);
  return false;
}

function covers(rule: Extract<NetworkRule, { kind: 'cidr' }>, ip: { family: 4 | 6; value: bigint }): boolean {
  if (rule.family !== ip.family) return false;
  const width = rule.family === 4 ? 32 : 128;
  const shift = BigInt(width - rule.bits);
  return ip.value >> shift === rule.value >> shift;
}

/** An address the allow_private_hosts permission lifts the deny for (IP and CIDR rules only). */
export function rulesCoverAddress(rules: readonly NetworkRule[], address: string): boolean {
  if (!isIP(address)) return false;
  const ip = ipValue(address);
  return rules.some((r) => (r.kind === 'ip' ? r.family === ip.family && r.value === ip.value : r.kind === 'cidr' && covers(r, ip)));
}
