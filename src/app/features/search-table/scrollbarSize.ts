// The width of this browser's scrollbars (0 where they overlay the content, as on phones), measured
// once per page. The grid is told it instead of measuring its own scrollbar on every change of its
// dimensions: each of those measures forces a layout of the whole page while the grid is mounting.
let measured: number | undefined;

export function platformScrollbarSize(): number {
  if (measured === undefined) {
    const probe = document.createElement('div');
    probe.style.cssText = 'position:absolute;top:-200px;width:100px;height:100px;overflow:scroll;';
    document.body.appendChild(probe);
    measured = probe.offsetWidth - probe.clientWidth;
    probe.remove();
  }
  return measured;
}
