// The stream muxer every txcast node runs: yamux, with a stream's receive window held to 1 MiB.
// Backpressure (framed.mjs) pauses a stream whose peer is over its rate; what the peer may still
// send then is its window, which must stay under what a paused stream may hold unread (4 MiB,
// beyond which libp2p resets the stream and its frames are lost). yamux's own window would grow
// to 16 MiB. Shared by the page and the Node relay, so plain JS.
import { yamux } from '@libp2p/yamux';

export const STREAM_WINDOW_BYTES = 1 << 20;

export function txcastMuxer() {
  return yamux({ streamOptions: { maxStreamWindowSize: STREAM_WINDOW_BYTES } });
}
