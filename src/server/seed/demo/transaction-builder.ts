// Collects the demo resources into one FHIR transaction Bundle. Each resource gets a local key
// ('patient-maria') and a `urn:uuid:` fullUrl derived from that key, so references between entries
// are plain `urn:uuid:` references that the server rewrites on commit, and the same key always
// yields the same fullUrl (stable bundles are easy to diff and to test).
import type { Bundle, BundleEntry, Reference, Resource } from '@medplum/fhirtypes';

export class TransactionBuilder {
  private readonly entries: BundleEntry[] = [];
  private readonly fullUrls = new Map<string, string>();

  /** Adds `resource` as a POST entry under `key` and returns a reference to it. */
  add<T extends Resource>(key: string, resource: T, display?: string): Reference<T> {
    if (this.fullUrls.has(key)) {
      throw new Error(`Duplicate demo resource key: ${key}`);
    }
    const fullUrl = `urn:uuid:${uuidFromKey(key)}`;
    if ([...this.fullUrls.values()].includes(fullUrl)) {
      throw new Error(`Demo resource key ${key} collides with another key's uuid`);
    }
    this.fullUrls.set(key, fullUrl);
    this.entries.push({ fullUrl, resource, request: { method: 'POST', url: resource.resourceType } });
    return this.ref<T>(key, display);
  }

  /** A reference to a resource added earlier under `key`. */
  ref<T extends Resource>(key: string, display?: string): Reference<T> {
    const fullUrl = this.fullUrls.get(key);
    if (!fullUrl) {
      throw new Error(`Unknown demo resource key: ${key}`);
    }
    return display === undefined ? { reference: fullUrl } : { reference: fullUrl, display };
  }

  build(): Bundle {
    return { resourceType: 'Bundle', type: 'transaction', entry: [...this.entries] };
  }
}

/**
 * A UUID (RFC 9562 version 8, "custom") computed from `key` with four rounds of 32-bit FNV-1a.
 * Not a security property: only a stable, well-formed placeholder id for the transaction.
 */
export function uuidFromKey(key: string): string {
  const words = [0x811c9dc5, 0x01000193, 0x9e3779b9, 0x85ebca6b].map((seed) => {
    let hash = seed >>> 0;
    for (let i = 0; i < key.length; i++) {
      hash ^= key.charCodeAt(i);
      hash = Math.imul(hash, 0x01000193) >>> 0;
    }
    return hash.toString(16).padStart(8, '0');
  });
  const hex = words.join('').split('');
  hex[12] = '8'; // version 8
  hex[16] = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16); // RFC variant 10xx
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}
