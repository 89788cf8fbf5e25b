/**
 * HMAC-SHA-256 over Web Crypto (no Node import), keyed from the mock's seed: object keys, voice
 * references and signed voice_url signatures all come from it, so the same seed gives the same ids.
 */
export interface Signer {
  /** Lowercase hex HMAC of the message. */
  sign(message: string): Promise<string>;
  /** Constant-time comparison of a presented signature with the expected one. */
  verify(message: string, signature: string): Promise<boolean>;
}

/**
 * A signer keyed from `secret`: the mock's seed for ids (reproducible), or random bytes for voice_url
 * signatures when no seed was given (unforgeable).
 *
 * @example
 * const signer = createSigner(seedSecret(42), state.caches.signatures);
 * const key = `obj_${(await signer.sign('upload:1')).slice(0, 32)}`;
 */
export function createSigner(secret: string, memo: Map<string, Promise<string>> = new Map()): Signer {
  const encoder = new TextEncoder();
  // Imported on the first signature, not here: touching Web Crypto loads Node's whole crypto layer
  // (~3 ms of the mock's startup), and a server that has stored nothing yet has nothing to sign.
  let key: Promise<CryptoKey> | undefined;
  const compute = async (message: string): Promise<string> => {
    key ??= crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
    ]);
    const mac = await crypto.subtle.sign('HMAC', await key, encoder.encode(message));
    return Array.from(new Uint8Array(mac), (byte) => byte.toString(16).padStart(2, '0')).join('');
  };
  // Web Crypto's async HMAC costs ~50 µs a call, and a list page signs up to 20 voice_urls whose
  // messages repeat for a whole second of the clock: signatures are a pure function of the message,
  // so they are memoized in `memo` (the service's caches.signatures, bounded and emptied by reset).
  const sign = (message: string): Promise<string> => {
    let signature = memo.get(message);
    if (!signature) {
      signature = compute(message);
      memo.set(message, signature);
    }
    return signature;
  };
  return {
    sign,
    async verify(message, signature) {
      const expected = await sign(message);
      if (signature.length !== expected.length) return false;
      let diff = 0;
      for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ signature.charCodeAt(i);
      return diff === 0;
    },
  };
}

/** The signing secret a seed gives: anyone who knows the seed can sign (reproducible runs only). */
export const seedSecret = (seed: number): string => `voice-kit mock seed ${seed}`;

/** A signing secret nobody can guess: 32 random bytes, as hex. */
export function randomSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
