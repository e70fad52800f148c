// Exports: files the browser downloads (report JSON and CSV, the trace, charts as SVG and PNG).

export function download(name: string, data: Blob): void {
  const url = URL.createObjectURL(data);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Chart styles that live in the page's CSS, inlined so the file looks the same on its own. */
const CHART_STYLE = `
text { fill: #8592a3; font: 11px system-ui, sans-serif; }
.domain, .tick line { stroke: #8592a3; }
.cursor { stroke: #d8dee6; stroke-dasharray: 3 3; }
`;

/** A standalone SVG document for a chart: dark background and styles included. */
export function svgDocument(svg: SVGSVGElement): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  const style = document.createElementNS('http://www.w3.org/2000/svg', 'style');
  style.textContent = CHART_STYLE;
  const background = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
  background.setAttribute('width', '100%');
  background.setAttribute('height', '100%');
  background.setAttribute('fill', '#111821');
  clone.prepend(style, background);
  return new XMLSerializer().serializeToString(clone);
}

/** Renders a chart's SVG to PNG at `scale` times its size. */
export async function svgToPng(svg: SVGSVGElement, scale = 2): Promise<Blob> {
  const width = Number(svg.getAttribute('width')) || svg.clientWidth;
  const height = Number(svg.getAttribute('height')) || svg.clientHeight;
  const url = URL.createObjectURL(new Blob([svgDocument(svg)], { type: 'image/svg+xml' }));
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(width * scale);
    canvas.height = Math.round(height * scale);
    const context = canvas.getContext('2d')!;
    context.drawImage(image, 0, 0, canvas.width, canvas.height);
    return await new Promise<Blob>((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('PNG encoding failed'))), 'image/png'));
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** The trace of the runs as CSV: every first arrival and duplicate, with its run. */
export function traceCsv(runs: { label: string; deliveries: Float64Array; duplicates: Float64Array }[]): string {
  const lines = ['run,event,t_us,node,tx'];
  const quote = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  for (const run of runs) {
    const label = quote(run.label);
    for (const [event, data] of [['deliver', run.deliveries], ['duplicate', run.duplicates]] as const) {
      for (let i = 0; i + 2 < data.length; i += 3) lines.push(`${label},${event},${data[i]},${data[i + 1]},${data[i + 2]}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
