// Share a scenario as a URL: the JSON, deflated (fflate) and base64url-encoded into the fragment,
// so it never reaches a server. Both directions are size-capped.
import type * as Fflate from 'fflate';
import { count } from './format';

/**
 * The deflate library, loaded with the first link made or opened: setting it up took several
 * ms of the page's first task, for a page that most often makes no link.
 */
let fflate: Promise<typeof Fflate> | null = null;
const deflater = () => (fflate ??= import('fflate'));

/** Longest fragment payload we produce: long URLs break in chat apps and address bars. */
export const MAX_SHARE_CHARS = 16_384;
/** Largest scenario we inflate from a URL: a small fragment could otherwise expand to gigabytes. */
export const MAX_SCENARIO_BYTES = 1 << 20;

export type Shared = { ok: true; scenario: string; seed?: string } | { ok: false; error: string };

function toBase64Url(bytes: Uint8Array): string {
  let text = '';
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

/** The fragment (without '#') for a scenario, or an error saying why it cannot be shared. */
export async function shareFragment(scenario: string, seed?: string): Promise<{ ok: true; fragment: string } | { ok: false; error: string }> {
  // Minify first: the editor's indentation is not worth the URL space.
  let compact = scenario;
  try {
    compact = JSON.stringify(JSON.parse(scenario));
  } catch {
    return { ok: false, error: 'the scenario is not valid JSON, so it cannot be shared' };
  }
  const { deflateSync, strToU8 } = await deflater();
  const data = toBase64Url(deflateSync(strToU8(compact), { level: 9 }));
  if (data.length > MAX_SHARE_CHARS) {
    return {
      ok: false,
      error: `this scenario compresses to ${count(data.length)} characters; share links hold at most ${count(MAX_SHARE_CHARS)}. Export the JSON and share the file instead.`,
    };
  }
  return { ok: true, fragment: `s=${data}${seed ? `&seed=${seed}` : ''}` };
}

/** Reads a fragment made by shareFragment; null when the fragment holds no scenario. */
export async function readFragment(fragment: string): Promise<Shared | null> {
  const params = new URLSearchParams(fragment.replace(/^#/, ''));
  const data = params.get('s');
  if (data === null) return null;
  if (data.length > MAX_SHARE_CHARS) return { ok: false, error: `the shared scenario is longer than ${MAX_SHARE_CHARS} characters` };
  let bytes: Uint8Array;
  try {
    bytes = fromBase64Url(data);
  } catch {
    return { ok: false, error: 'the share link is damaged (not base64url)' };
  }
  const { Inflate, strFromU8 } = await deflater();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    const inflate = new Inflate((chunk) => {
      size += chunk.length;
      if (size > MAX_SCENARIO_BYTES) throw new Error('too large');
      chunks.push(chunk);
    });
    for (let at = 0; at < bytes.length; at += 1024) inflate.push(bytes.subarray(at, at + 1024), at + 1024 >= bytes.length);
    if (bytes.length === 0) inflate.push(new Uint8Array(0), true);
  } catch (error) {
    const tooLarge = error instanceof Error && error.message === 'too large';
    return { ok: false, error: tooLarge ? `the shared scenario expands past ${MAX_SCENARIO_BYTES} bytes` : 'the share link is damaged (not a deflated scenario)' };
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  const seed = params.get('seed') ?? undefined;
  return { ok: true, scenario: strFromU8(all), seed: seed && /^\d{1,20}$/.test(seed) ? seed : undefined };
}
