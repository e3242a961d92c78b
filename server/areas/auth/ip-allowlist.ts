// API clients' address allowlists: CIDR blocks (or single addresses), IPv4 and IPv6. An IPv4-mapped
// IPv6 address (`::ffff:203.0.113.7`, what a dual-stack socket reports) matches the IPv4 blocks.
import ipaddr from 'ipaddr.js';

/** The block in its canonical form (`203.0.113.0/24`, `2001:db8::/32`), or undefined when it is not one. */
export function canonicalBlock(text: string): string | undefined {
  const value = text.trim();
  try {
    if (value.includes('/')) {
      const [address, bits] = ipaddr.parseCIDR(value);
      // The network address, so `203.0.113.7/24` is stored as the block it names.
      const network =
        address.kind() === 'ipv4'
          ? ipaddr.IPv4.networkAddressFromCIDR(value)
          : ipaddr.IPv6.networkAddressFromCIDR(value);
      return `${network.toString()}/${bits}`;
    }
    if (!ipaddr.isValid(value)) return undefined;
    const address = ipaddr.parse(value);
    return `${address.toString()}/${address.kind() === 'ipv4' ? 32 : 128}`;
  } catch {
    return undefined;
  }
}

/** Whether `address` lies in one of `blocks` (canonical CIDR strings). */
export function addressAllowed(address: string, blocks: readonly string[]): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return blocks.some((block) => {
    try {
      const range = ipaddr.parseCIDR(block);
      return range[0].kind() === parsed.kind() && parsed.match(range);
    } catch {
      return false;
    }
  });
}
