// Everything the panel draws with, in one chunk: loaded once, when the light node starts.
export * as charts from '../charts/charts';
export * as legend from '../canvas/legend';
export * as live from './livecharts';
export * as netdraw from './netdraw';
export * as netview from './netview';
