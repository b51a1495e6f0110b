// AccessPolicy.ipAccessRule, as Medplum's server applies it: the rules are tried in order and the
// first whose value matches the caller's address decides (`allow` or `block`); no match allows.
// A value is an address, a CIDR range (IPv4 or IPv6) or `*`.
import { BlockList, isIP } from 'node:net';
import type { AccessPolicyIpAccessRule } from '@medplum/fhirtypes';

/** An IPv4 address in IPv6 form (::ffff:10.0.0.1), as a dual-stack socket reports it, as IPv4. */
function normalize(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

function matches(value: string, address: string): boolean {
  if (value === '*') {
    return true;
  }
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  const [network, prefix] = value.split('/');
  const list = new BlockList();
  try {
    const networkFamily = isIP(network) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) {
      list.addAddress(network, networkFamily);
    } else {
      list.addSubnet(network, Number(prefix), networkFamily);
    }
    return list.check(address, family);
  } catch {
    // A malformed rule matches nothing (an admin's typo must not block or allow everyone).
    return false;
  }
}

/** Whether the rules let a request from `address` through. */
export function ipAllowed(rules: readonly AccessPolicyIpAccessRule[] | undefined, address: string): boolean {
  const ip = normalize(address);
  for (const rule of rules ?? []) {
    if (rule.value && matches(rule.value, ip)) {
      return rule.action !== 'block';
    }
  }
  return true;
}
