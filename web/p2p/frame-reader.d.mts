/** A frame whose length is above the cap (its stream cannot be framed any more). */
export class FrameTooLong extends Error {}
/** Bytes that cannot be a frame's length. */
export class BadFrameLength extends Error {}
/** The stream ended inside a frame (or its length). */
export class FrameCutShort extends Error {}
/** A long frame's bytes were let in and did not all come within `frameMs`. */
export class FrameTooSlow extends Error {}
/** What a reader with a budget may hold without taking from it. */
export const SMALL_FRAME_BYTES: number;
/** Bytes that the long frames being read by a node's readers may hold together. */
export class ReadBudget {
  constructor(limit: number);
  readonly used: number;
  take(n: number): Promise<void>;
  give(n: number): void;
}
/** Length-prefixed frames read off a libp2p stream, pausing it while more than it may hold waits unread. */
export class FrameReader {
  constructor(stream: EventTarget & { readStatus: string; pause(): void; resume(): void }, options: { maxFrameBytes: number; highWater?: number; budget?: ReadBudget; frameMs?: number });
  readonly buffered: number;
  /** The next frame, or null once the stream ended cleanly between frames. */
  read(): Promise<Uint8Array | null>;
}
