/** A frame whose length is above the cap (its stream cannot be framed any more). */
export class FrameTooLong extends Error {}
/** Bytes that cannot be a frame's length. */
export class BadFrameLength extends Error {}
/** Length-prefixed frames read off a libp2p stream, pausing it while more than `highWater` bytes wait unread. */
export class FrameReader {
  constructor(stream: EventTarget & { readStatus: string; pause(): void; resume(): void }, options: { maxFrameBytes: number; highWater?: number });
  readonly buffered: number;
  /** The next frame, or null once the stream ended cleanly between frames. */
  read(): Promise<Uint8Array | null>;
}
