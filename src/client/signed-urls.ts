// Signed media URLs (SPEC §9 "Signed media URLs are reused while more than 5 s remain before
// expiry"): a Binary's download URL carries an `Expires` (seconds since the epoch) and a signature
// that changes with every response. Reusing the URL we already have, while it still has more than
// 5 s to live, keeps the browser's image cache and stops a re-render from reloading the media.

export const SIGNED_URL_MIN_REMAINING_MS = 5000;

function expiresAt(url: string): number | undefined {
  try {
    const expires = new URL(url).searchParams.get('Expires');
    return expires !== null && /^\d+$/.test(expires) ? Number(expires) * 1000 : undefined;
  } catch {
    return undefined;
  }
}

export class SignedUrlCache {
  /** Signed URL by the URL without its query (the resource it points at). */
  private readonly urls = new Map<string, string>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The URL to use for `url`: a cached one of the same resource while it stays valid long enough, else `url`. */
  get(url: string): string {
    if (expiresAt(url) === undefined) {
      return url;
    }
    const key = url.split('?')[0];
    const cached = this.urls.get(key);
    const cachedExpires = cached === undefined ? undefined : expiresAt(cached);
    if (
      cached !== undefined &&
      cachedExpires !== undefined &&
      cachedExpires - this.now() > SIGNED_URL_MIN_REMAINING_MS
    ) {
      return cached;
    }
    this.urls.set(key, url);
    return url;
  }

  clear(): void {
    this.urls.clear();
  }
}
