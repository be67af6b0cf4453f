// The colours a figure or a printed page is drawn in: the light scheme's,
// ink on white paper, whatever scheme the screen shows.

export const PAPER = Object.freeze({
  ink: '#1d1d1f', muted: '#5c5c66', bg: '#ffffff', soft: '#f3f3f6', line: '#c9c9d2', accent: '#2458a6',
  font: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
});

/** A heat grid's labels (HeatGrid.paintInto's style) in a palette's colours. */
export function gridStyle(palette) {
  return { color: palette.ink, backgroundColor: palette.bg, fontFamily: palette.font };
}
