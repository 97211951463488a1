// The terminal keeps a dark palette in both app themes: recorded output assumes a dark background, and light
// palettes make the common bright-white/yellow output unreadable.
export const TERMINAL_THEME = {
  background: "#15171c",
  foreground: "#e4e4e7",
  cursor: "#e4e4e7",
  cursorAccent: "#15171c",
  selectionBackground: "#3b4252",
  black: "#1f2228",
  red: "#f87171",
  green: "#4ade80",
  yellow: "#facc15",
  blue: "#60a5fa",
  magenta: "#c084fc",
  cyan: "#22d3ee",
  white: "#d4d4d8",
  brightBlack: "#71717a",
  brightRed: "#fca5a5",
  brightGreen: "#86efac",
  brightYellow: "#fde047",
  brightBlue: "#93c5fd",
  brightMagenta: "#d8b4fe",
  brightCyan: "#67e8f9",
  brightWhite: "#fafafa",
} as const;

export const TERMINAL_FONT = 'ui-monospace, "JetBrains Mono", "DejaVu Sans Mono", Menlo, monospace';
export const BASE_FONT_SIZE = 13;

/**
 * Bounds of a fitted terminal's font (TerminalView's "fit", the poster's container-query size). The lower bound is
 * small so a recorded width fits a phone's (80 columns in 390 px): unreadable there, but whole, and "Fit" off shows
 * the base size with a scrollbar.
 */
export const FIT_MIN_FONT = 4;
export const FIT_MAX_FONT = 22;
