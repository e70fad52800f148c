// Draws the bulk of a big network on the GPU (WebGL through regl): the land, its links, the picked
// tx's path, messages in flight and nodes. Canvas 2D rasterizes tens of thousands of arcs and
// lines on the page's thread in every frame; WebGL draws them as points and lines in one call each
// (in software too, where Chromium has no GPU: SwiftShader). Each panel has its own WebGL canvas
// under its 2D canvas, which draws the sparse marks on top: copying WebGL pixels into a 2D canvas
// instead would stall every frame on reading them back.
import createREGL from 'regl';
import { BACKGROUND, LAND } from './palette';
import { BUCKET_RGBA, BUCKET_WORDS, DUPLICATE_RGBA, rgba, UNREACHED_RGBA, UNREACHED_WORD } from './segments';

/** What the GPU draws of one frame (positions in the unit box, mapped like the 2D path's). */
export interface GpuFrame {
  /** Backing-store size in device pixels, and device pixels per CSS pixel. */
  pixelWidth: number;
  pixelHeight: number;
  ratio: number;
  /** screen (CSS px) = mul * position + offset. */
  mul: number;
  offset: [number, number];
  positions: Float32Array;
  edges: Uint32Array;
  /** Drawn under the network (the world's land in the map view), in the unit box. */
  background: Path2D | null;
  /** Links visible at this zoom, roughly: their alpha follows it (level of detail). */
  linkAlpha: number;
  /** Asked before drawing a batch of links into the backdrop: whether this frame may (one canvas a frame does). */
  linkTurn: () => boolean;
  /** Node radius in CSS pixels. */
  radius: number;
  /** Per node: colour bucket, -1 unreached, -2 away (an empty ring). */
  nodeBuckets: Int8Array;
  /** Line segments (unit-box endpoints, x0 y0 x1 y1) and their colours (RGBA bytes, one per segment). */
  segments: Float32Array;
  segmentColours: Uint8Array;
  segmentCount: number;
  segmentWidth: number;
  /** Rings drawn over nodes (unit-box centres, x y), of `ringRadius` CSS pixels: duplicates that just landed. */
  rings: Float32Array;
  ringRadius: number;
}

const LINK_RGB = [140, 160, 185];
const BACKGROUND_RGBA = rgba(BACKGROUND).map((v) => v / 255) as [number, number, number, number];
/** The land is rasterized once into a texture of this many pixels a side, covering this much of the unit box. */
const LAND_PIXELS = 2048;
const LAND_EXTENT = 1.05;
/** Nodes this small (radius in device pixels) are stamped on the CPU rather than drawn as points. */
const SPLAT_MAX_RADIUS = 3;
/**
 * Links a turn draws into the backdrop; the rest follow in the next frames. A GPU draws them at
 * once, but SwiftShader (Chromium without a GPU) rasterizes a link in about 3 us on the page's
 * thread: three panels of 50,000 nodes drew their 600,000 links in one 2.4 s task. A batch this
 * size is about 0.2 s there, and all the links are up about 3 s later than in one go.
 */
const LINK_BATCH = 65_536;

// Positions in the unit box to clip space, by the same mapping the 2D path uses.
const TO_CLIP = `
uniform float mul;
uniform vec2 offset;
uniform vec2 size;
vec4 toClip(vec2 p) {
  vec2 s = offset + mul * p;
  return vec4(s.x / size.x * 2.0 - 1.0, 1.0 - s.y / size.y * 2.0, 0.0, 1.0);
}`;

type Regl = ReturnType<typeof createREGL>;

/** A buffer of data that changes only with its sources (links: the network and the layout). */
interface Kept {
  a: object;
  b: object;
  buffer: ReturnType<Regl['buffer']>;
  count: number;
}

export class GpuRenderer {
  readonly canvas: HTMLCanvasElement;
  private readonly regl: Regl;
  private readonly drawLines;
  private readonly drawPoints;
  /** Buffers rewritten each frame, grown as needed. */
  private readonly dynamic;
  private readonly drawLand;
  /** Copies a texture over the whole canvas (blended for the nodes' image, not for the backdrop). */
  private readonly drawImage;
  private splat: { width: number; height: number; pixels: Uint32Array; texture: ReturnType<Regl['texture']> } | null = null;
  /** The land and links drawn for one view, kept in a framebuffer: redrawn only when the view changes. */
  private backdrop: { inputs: unknown[]; fbo: ReturnType<Regl['framebuffer']>; linksDrawn: number } | null = null;
  private links: Kept[] = [];
  private nodes: Kept[] = [];
  private land: { path: Path2D; texture: ReturnType<Regl['texture']> } | null = null;

  private constructor(canvas: HTMLCanvasElement, regl: Regl) {
    this.canvas = canvas;
    this.regl = regl;
    // A buffer's type is how an attribute reads it unless told otherwise.
    const dyn = (type: 'float' | 'uint8') => ({ buffer: regl.buffer({ usage: 'dynamic', type, length: 4 }), bytes: 4, type });
    this.dynamic = { segments: dyn('float'), segmentColours: dyn('uint8'), nodeColours: dyn('uint8'), rings: dyn('float'), marks: dyn('float') };
    // Colours leave the fragment shader premultiplied, as the canvas composites them.
    const blend = { enable: true, func: { src: 'one', dst: 'one minus src alpha' } } as const;
    this.drawLines = regl({
      vert: `precision highp float;
attribute vec2 position;
attribute vec4 colour;
uniform float alpha;
varying vec4 tint;
${TO_CLIP}
void main() {
  tint = vec4(colour.rgb, colour.a * alpha);
  gl_Position = toClip(position);
}`,
      frag: `precision highp float;
varying vec4 tint;
void main() { gl_FragColor = vec4(tint.rgb * tint.a, tint.a); }`,
      attributes: {
        position: regl.prop<LineProps, 'position'>('position'),
        colour: regl.prop<LineProps, 'colour'>('colour'),
      },
      uniforms: {
        ...viewUniforms(regl),
        alpha: regl.prop<LineProps, 'alpha'>('alpha'),
      },
      lineWidth: (_, p: LineProps) => Math.max(1, Math.min(p.width, regl.limits.lineWidthDims[1])),
      primitive: 'lines',
      offset: (_, p: LineProps) => p.first ?? 0,
      count: regl.prop<LineProps, 'count'>('count'),
      blend,
      depth: { enable: false },
    });
    this.drawLand = regl({
      vert: `precision highp float;
attribute vec2 corner;
uniform float extent;
varying vec2 uv;
${TO_CLIP}
void main() {
  uv = 0.5 * (corner + 1.0);
  gl_Position = toClip(corner * extent);
}`,
      frag: `precision highp float;
uniform sampler2D land;
uniform vec4 colour;
varying vec2 uv;
void main() {
  float a = texture2D(land, uv).a * colour.a;
  gl_FragColor = vec4(colour.rgb * a, a);
}`,
      attributes: { corner: [-1, -1, 1, -1, -1, 1, -1, 1, 1, -1, 1, 1] },
      uniforms: {
        ...viewUniforms(regl),
        land: regl.prop<LandProps, 'land'>('land'),
        extent: LAND_EXTENT,
        colour: rgba(LAND).map((v) => v / 255),
      },
      count: 6,
      blend,
      depth: { enable: false },
    });
    this.drawImage = regl({
      vert: `precision highp float;
attribute vec2 corner;
varying vec2 uv;
void main() {
  uv = 0.5 * (corner + 1.0);
  gl_Position = vec4(corner, 0.0, 1.0);
}`,
      frag: `precision highp float;
uniform sampler2D image;
varying vec2 uv;
void main() { gl_FragColor = texture2D(image, uv); }`,
      attributes: { corner: [-1, -1, 1, -1, -1, 1, -1, 1, 1, -1, 1, 1] },
      uniforms: { image: regl.prop<ImageProps, 'image'>('image') },
      count: 6,
      // regl takes blend.enable per draw; its types allow only a constant.
      blend: { enable: regl.prop<ImageProps, 'blend'>('blend') as unknown as boolean, func: { src: 'one', dst: 'one minus src alpha' } },
      depth: { enable: false },
    });
    this.drawPoints = regl({
      vert: `precision highp float;
attribute vec2 position;
attribute vec4 colour;
attribute float ring;
uniform float pointSize;
varying vec4 tint;
varying float hollow;
${TO_CLIP}
void main() {
  tint = colour;
  hollow = ring;
  gl_PointSize = pointSize;
  gl_Position = toClip(position);
}`,
      frag: `precision highp float;
varying vec4 tint;
varying float hollow;
uniform float pointSize;
void main() {
  // A disc with a soft edge one pixel wide, or a ring for a node that left.
  float r = length(gl_PointCoord - 0.5) * pointSize;
  float outer = clamp(0.5 * pointSize - r + 0.5, 0.0, 1.0);
  float inner = hollow > 0.5 ? clamp(r - (0.5 * pointSize - 1.6) + 0.5, 0.0, 1.0) : 1.0;
  float a = tint.a * outer * inner;
  if (a <= 0.0) discard;
  gl_FragColor = vec4(tint.rgb * a, a);
}`,
      attributes: {
        position: regl.prop<PointProps, 'position'>('position'),
        colour: regl.prop<PointProps, 'colour'>('colour'),
        ring: regl.prop<PointProps, 'ring'>('ring'),
      },
      uniforms: {
        ...viewUniforms(regl),
        pointSize: regl.prop<PointProps, 'pointSize'>('pointSize'),
      },
      primitive: 'points',
      count: regl.prop<PointProps, 'count'>('count'),
      blend,
      depth: { enable: false },
    });
  }

  /**
   * A renderer drawing into `canvas`, or null where WebGL is unavailable (the 2D path draws
   * everything then). The drawing buffer is kept after each frame so that it can be read back
   * (the tests and a screenshot do).
   */
  static create(canvas: HTMLCanvasElement): GpuRenderer | null {
    try {
      // An opaque drawing buffer (alpha: false) took four times as long per frame in SwiftShader.
      const gl = canvas.getContext('webgl', { antialias: false, preserveDrawingBuffer: true });
      if (!gl) throw new Error('no WebGL context');
      return new GpuRenderer(canvas, createREGL({ gl, optionalExtensions: [] }));
    } catch (error) {
      console.warn('WebGL could not start; big networks are drawn with canvas 2D:', error);
      return null;
    }
  }

  /** Writes `data` into a per-frame buffer, growing it when it does not fit. */
  private fill(slot: { buffer: ReturnType<Regl['buffer']>; bytes: number; type: 'float' | 'uint8' }, data: Float32Array | Uint8Array): ReturnType<Regl['buffer']> {
    if (data.byteLength > slot.bytes) {
      slot.bytes = Math.max(data.byteLength, 2 * slot.bytes);
      slot.buffer({ usage: 'dynamic', type: slot.type, length: slot.bytes });
    }
    if (data.byteLength) slot.buffer.subdata(data);
    return slot.buffer;
  }

  /** A buffer of unit-box points that changes only with (a, b); the few latest are kept, older ones freed. */
  private kept(list: Kept[], a: object, b: object, build: () => Float32Array): Kept {
    let found = list.find((k) => k.a === a && k.b === b);
    if (!found) {
      const data = build();
      found = { a, b, buffer: this.regl.buffer({ usage: 'static', data }), count: data.length / 2 };
      list.unshift(found);
      for (const old of list.splice(6)) old.buffer.destroy();
    }
    return found;
  }

  /**
   * Level of detail for small nodes: each is stamped into an image on the CPU, which is drawn as one
   * texture. SwiftShader sets up every point on its own, and tens of thousands of them took most
   * of a frame; a few pixels per node written here take a millisecond or two.
   */
  private splatNodes(frame: GpuFrame, n: number): void {
    const w = frame.pixelWidth;
    const h = frame.pixelHeight;
    if (!this.splat || this.splat.width !== w || this.splat.height !== h) {
      this.splat?.texture.destroy();
      this.splat = { width: w, height: h, pixels: new Uint32Array(w * h), texture: this.regl.texture({ width: w, height: h, min: 'nearest', mag: 'nearest' }) };
    }
    const { pixels, texture } = this.splat;
    pixels.fill(0);
    const r = Math.max(0.75, frame.radius * frame.ratio);
    const reach = Math.ceil(r);
    const { positions } = frame;
    const [ox, oy] = frame.offset;
    const scale = frame.mul * frame.ratio;
    for (let i = 0; i < n; i += 1) {
      const b = frame.nodeBuckets[i];
      const colour = b >= 0 ? BUCKET_WORDS[b] : UNREACHED_WORD;
      const cx = ox * frame.ratio + scale * positions[2 * i];
      const cy = oy * frame.ratio + scale * positions[2 * i + 1];
      const px = Math.round(cx);
      const py = Math.round(cy);
      if (px < -reach || py < -reach || px >= w + reach || py >= h + reach) continue;
      for (let dy = -reach; dy <= reach; dy += 1) {
        const y = py + dy;
        if (y < 0 || y >= h) continue;
        for (let dx = -reach; dx <= reach; dx += 1) {
          const x = px + dx;
          const d2 = (x - cx) * (x - cx) + (y - cy) * (y - cy);
          // A node that left is a ring (its inside stays clear).
          if (x < 0 || x >= w || d2 > r * r || (b === -2 && d2 < (r - 1) * (r - 1))) continue;
          pixels[(h - 1 - y) * w + x] = colour; // texture rows run bottom up
        }
      }
    }
    texture.subimage({ width: w, height: h, data: new Uint8Array(pixels.buffer) });
    this.drawImage({ image: texture, blend: true });
  }

  /** The land as a texture, rasterized once per path. */
  private landTexture(path: Path2D): ReturnType<Regl['texture']> {
    if (this.land?.path !== path) {
      this.land?.texture.destroy();
      const raster = document.createElement('canvas');
      raster.width = raster.height = LAND_PIXELS;
      const g = raster.getContext('2d')!;
      const half = LAND_PIXELS / 2;
      // The canvas's top row is the texture's first (v = 0), where the unit box's y is least.
      g.setTransform(half / LAND_EXTENT, 0, 0, half / LAND_EXTENT, half, half);
      g.fillStyle = '#fff';
      g.fill(path);
      this.land = { path, texture: this.regl.texture({ data: raster, min: 'linear', mag: 'linear' }) };
    }
    return this.land.texture;
  }

  /** Draws `frame` into this renderer's canvas (sized to the frame); returns how many links are still to draw into the backdrop. */
  draw(frame: GpuFrame): number {
    const { regl } = this;
    if (this.canvas.width !== frame.pixelWidth || this.canvas.height !== frame.pixelHeight) {
      this.canvas.width = frame.pixelWidth;
      this.canvas.height = frame.pixelHeight;
    }
    regl.poll();
    const size: [number, number] = [frame.pixelWidth / frame.ratio, frame.pixelHeight / frame.ratio];
    const view = { mul: frame.mul, offset: frame.offset, size };
    const { edges, positions } = frame;

    // The land and the links change only with the view: drawn into a framebuffer once (rasterizing
    // every link in every frame would be most of a frame's work), then copied in each frame.
    const inputs = [frame.pixelWidth, frame.pixelHeight, frame.mul, frame.offset[0], frame.offset[1], edges, positions, frame.background, frame.linkAlpha];
    if (!this.backdrop || this.backdrop.inputs.some((v, i) => v !== inputs[i])) {
      const fbo = this.backdrop?.fbo ?? regl.framebuffer({ width: frame.pixelWidth, height: frame.pixelHeight, depth: false });
      fbo.resize(frame.pixelWidth, frame.pixelHeight);
      this.backdrop = { inputs, fbo, linksDrawn: 0 };
      regl({ framebuffer: fbo })(() => {
        regl.clear({ color: BACKGROUND_RGBA });
        if (frame.background) this.drawLand({ ...view, land: this.landTexture(frame.background) });
      });
    }
    const backdrop = this.backdrop;
    const links = frame.linkAlpha > 0 ? edges.length >> 1 : 0;
    if (backdrop.linksDrawn < links && frame.linkTurn()) {
      const buffer = this.kept(this.links, edges, positions, () => {
        const data = new Float32Array(edges.length * 2);
        for (let i = 0; i < edges.length; i += 1) {
          data[2 * i] = positions[2 * edges[i]];
          data[2 * i + 1] = positions[2 * edges[i] + 1];
        }
        return data;
      }).buffer;
      const end = Math.min(links, backdrop.linksDrawn + LINK_BATCH);
      const colour = { constant: [LINK_RGB[0] / 255, LINK_RGB[1] / 255, LINK_RGB[2] / 255, 1] };
      regl({ framebuffer: backdrop.fbo })(() => {
        this.drawLines({ ...view, position: buffer, colour, alpha: frame.linkAlpha, first: 2 * backdrop.linksDrawn, count: 2 * (end - backdrop.linksDrawn), width: 1 });
      });
      backdrop.linksDrawn = end;
    }
    this.drawImage({ image: backdrop.fbo, blend: false });

    // The picked tx's path and messages in flight: segments built for this frame.
    if (frame.segmentCount) {
      const position = this.fill(this.dynamic.segments, frame.segments.subarray(0, 4 * frame.segmentCount));
      const colour = this.fill(this.dynamic.segmentColours, frame.segmentColours.subarray(0, 8 * frame.segmentCount));
      this.drawLines({ ...view, position, colour: { buffer: colour, normalized: true, type: 'uint8', size: 4 }, alpha: 1, count: 2 * frame.segmentCount, width: frame.segmentWidth * frame.ratio });
    }

    // Nodes: a point each, coloured by when the tx reached it.
    const nodes = this.kept(this.nodes, positions, positions, () => positions);
    const n = Math.min(nodes.count, frame.nodeBuckets.length);
    const pixels = frame.radius * frame.ratio;
    if (pixels <= SPLAT_MAX_RADIUS) this.splatNodes(frame, n);
    else {
      const colours = new Uint8Array(4 * n);
      const rings = new Float32Array(n);
      for (let i = 0; i < n; i += 1) {
        const b = frame.nodeBuckets[i];
        colours.set(b >= 0 ? BUCKET_RGBA[b] : UNREACHED_RGBA, 4 * i);
        rings[i] = b === -2 ? 1 : 0;
      }
      this.drawPoints({
        ...view,
        position: nodes.buffer,
        colour: { buffer: this.fill(this.dynamic.nodeColours, colours), normalized: true, type: 'uint8', size: 4 },
        ring: this.fill(this.dynamic.rings, rings),
        pointSize: Math.max(1, 2 * pixels + 1),
        count: n,
      });
    }
    if (frame.rings.length) {
      this.drawPoints({
        ...view,
        position: this.fill(this.dynamic.marks, frame.rings),
        colour: { constant: DUPLICATE_RGBA.map((v) => v / 255) },
        ring: { constant: [1] },
        pointSize: 2 * frame.ringRadius * frame.ratio + 1,
        count: frame.rings.length / 2,
      });
    }
    return links - backdrop.linksDrawn;
  }
}

interface LineProps extends ViewProps {
  position: unknown;
  colour: unknown;
  alpha: number;
  /** The first vertex drawn (0 if absent), and how many. */
  first?: number;
  count: number;
  width: number;
}

/** Where the unit box lands on the screen: the inputs of `TO_CLIP`. */
interface ViewProps {
  mul: number;
  offset: [number, number];
  size: [number, number];
}

/** `TO_CLIP`'s uniforms, taken from a draw's props. */
function viewUniforms(regl: Regl) {
  return { mul: regl.prop<ViewProps, 'mul'>('mul'), offset: regl.prop<ViewProps, 'offset'>('offset'), size: regl.prop<ViewProps, 'size'>('size') };
}

interface ImageProps {
  image: unknown;
  blend: boolean;
}

interface LandProps extends ViewProps {
  land: unknown;
}

interface PointProps extends ViewProps {
  position: unknown;
  colour: unknown;
  ring: unknown;
  pointSize: number;
  count: number;
}
