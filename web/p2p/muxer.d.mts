export const STREAM_WINDOW_BYTES: number;
/** yamux with a stream's receive window held to STREAM_WINDOW_BYTES. */
export function txcastMuxer(): ReturnType<typeof import('@libp2p/yamux').yamux>;
