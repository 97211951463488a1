// Browser-side exports of a chart card: the chart's SVG as a PNG (colours resolved, since CSS variables do not
// survive serialization), and its numbers as CSV.

function download(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function downloadCsv(csv: string, fileName: string) {
  download(new Blob([csv], { type: "text/csv;charset=utf-8" }), fileName);
}

const PAINT = ["fill", "stroke", "color", "stop-color", "font-family", "font-size", "font-weight", "opacity"] as const;

/** Copy the computed paint of every element onto the clone so the PNG looks like the screen in either theme. */
function inlineStyles(source: Element, clone: Element) {
  const style = getComputedStyle(source);
  (clone as SVGElement).setAttribute("style", PAINT.map((p) => `${p}:${style.getPropertyValue(p)}`).join(";"));
  for (let i = 0; i < source.children.length; i++) inlineStyles(source.children[i]!, clone.children[i]!);
}

export async function downloadSvgAsPng(svg: SVGSVGElement, fileName: string, background: string) {
  const rect = svg.getBoundingClientRect();
  const width = rect.width || Number(svg.getAttribute("width")) || 800;
  const height = rect.height || Number(svg.getAttribute("height")) || 400;
  const clone = svg.cloneNode(true) as SVGSVGElement;
  inlineStyles(svg, clone);
  clone.setAttribute("xmlns", "http://www.w3.org/2000/svg");
  clone.setAttribute("width", String(width));
  clone.setAttribute("height", String(height));
  const url = URL.createObjectURL(new Blob([new XMLSerializer().serializeToString(clone)], { type: "image/svg+xml" }));
  try {
    const img = new Image();
    await new Promise<void>((resolve, reject) => {
      img.onload = () => resolve();
      img.onerror = () => reject(new Error("could not render the chart"));
      img.src = url;
    });
    const scale = 2;
    const canvas = document.createElement("canvas");
    canvas.width = Math.ceil(width * scale);
    canvas.height = Math.ceil(height * scale);
    const g = canvas.getContext("2d")!;
    g.fillStyle = background;
    g.fillRect(0, 0, canvas.width, canvas.height);
    g.scale(scale, scale);
    g.drawImage(img, 0, 0, width, height);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, "image/png"));
    if (blob) download(blob, fileName);
  } finally {
    URL.revokeObjectURL(url);
  }
}
