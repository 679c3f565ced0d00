// Which network addresses a server-side fetch may reach (companion §1.8.1). Private,
// loopback, link-local, carrier-grade NAT, multicast, broadcast and unspecified addresses are
// refused unless the operator allows them, either entirely or by listed IPs and CIDR blocks.
import { BlockList, isIP } from 'node:net';

const FORBIDDEN = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  FORBIDDEN.addSubnet(net, bits, 'ipv4');
}
// Azure's host address looks public but reaches platform services.
FORBIDDEN.addAddress('168.63.129.16', 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const) {
  FORBIDDEN.addSubnet(net, bits, 'ipv6');
}

export class AddressPolicyError extends Error {}

export interface AddressPolicy {
  /** Lifts the refusal entirely (-allow-private-hosts). */
  allowPrivate: boolean;
  /** Private addresses that may be reached anyway (-allow-private-fetch). */
  allowed: BlockList;
}

/** IPv4-mapped IPv6 addresses (::ffff:10.0.0.1) are judged as the IPv4 address they carry. */
function unmapped(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (m) return { address: m[1], family: 'ipv4' };
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

export function isForbiddenAddress(address: string, policy: AddressPolicy): boolean {
  if (policy.allowPrivate) return false;
  const a = unmapped(address);
  if (!FORBIDDEN.check(a.address, a.family)) return false;
  return !policy.allowed.check(a.address, a.family);
}

/**
 * Parses `-allow-private-fetch` entries: IP addresses or CIDR blocks, IPv4 prefixes /8 or
 * longer and IPv6 prefixes /32 or longer. Anything else throws with a message naming it.
 */
export function parseAllowList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const raw of entries) {
    const entry = raw.trim();
    if (entry === '') continue;
    const [ip, bitsText, extra] = entry.split('/');
    const family = isIP(ip);
    if (family === 0 || extra !== undefined) throw new Error(`"${entry}" is not an IP address or CIDR block`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (bitsText === undefined) {
      list.addAddress(ip, type);
      continue;
    }
    const bits = /^\d{1,3}$/.test(bitsText) ? Number(bitsText) : NaN;
    const [min, max] = family === 4 ? [8, 32] : [32, 128];
    if (!(bits >= min && bits <= max)) throw new Error(`"${entry}": the prefix must be between /${min} and /${max}`);
    list.addSubnet(ip, bits, type);
  }
  return list;
}
