// The world map view of geographic scenarios: nodes projected from their coordinates, and the
// land under them, in the renderer's unit box. Loaded when a map is first shown: most scenarios
// have none, and its projection code lengthened the page's first task.
import { geoEqualEarth, geoPath } from 'd3';
import type { GeometryCollection, Topology } from 'topojson-specification';

/** The map projection, fitted so the whole globe spans x in [-1, 1]. */
function projection() {
  return geoEqualEarth().fitExtent(
    [
      [-1, -0.487],
      [1, 0.487],
    ],
    { type: 'Sphere' },
  );
}

/** Projects (lat, lon) pairs, as `coordinates()` gives them, into the unit box. */
export function mapPositions(coordinates: Float64Array): Float32Array {
  const project = projection();
  const nodes = coordinates.length / 2;
  const out = new Float32Array(2 * nodes);
  for (let i = 0; i < nodes; i += 1) {
    const p = project([coordinates[2 * i + 1], coordinates[2 * i]]) ?? [0, 0];
    out[2 * i] = p[0];
    out[2 * i + 1] = p[1];
  }
  return out;
}

let land: Promise<Path2D> | null = null;

/** The world's land outline in the same unit box, loaded (world-atlas, 1:110m) on first use. */
export function landPath(): Promise<Path2D> {
  land ??= import('world-atlas/land-110m.json').then(async (module) => {
    const { feature } = await import('topojson-client');
    const topology = (module.default ?? module) as unknown as Topology<{ land: GeometryCollection }>;
    const shape = feature(topology, topology.objects.land);
    return new Path2D(geoPath(projection())(shape) ?? '');
  });
  return land;
}
