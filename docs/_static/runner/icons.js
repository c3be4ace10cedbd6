// The signs on the runner's buttons, as drawings: a font glyph ("⧉", "↻") shows as
// an empty box where the reader's font lacks it, a drawing shows everywhere.  Each
// sign is data (shapes on a 24-unit grid, in the text's colour); dom.js draws it as
// an inline SVG beside the button's words, hidden from screen readers, so that a
// button's name stays its words (or its aria-label).

/** Each sign: its shapes, each a path `d`, drawn as a line, or filled (`filled`). */
export const ICONS = Object.freeze({
  run: Object.freeze([Object.freeze({ d: "M7 4.5 L19 12 L7 19.5 Z", filled: true })]),
  edit: Object.freeze([
    Object.freeze({ d: "M15.5 4.5 L19.5 8.5 L9 19 L4.5 19.5 L5 15 Z" }),
    Object.freeze({ d: "M13 7 L17 11" }),
  ]),
  stop: Object.freeze([Object.freeze({ d: "M6 6 H18 V18 H6 Z", filled: true })]),
  // An arrow round a circle, anticlockwise: back to how it was.
  reset: Object.freeze([
    Object.freeze({ d: "M4 12 A8 8 0 1 0 6.34 6.34" }),
    Object.freeze({ d: "M6.34 1.84 V6.34 H10.84" }),
  ]),
  // The same arrow clockwise: start again.
  restart: Object.freeze([
    Object.freeze({ d: "M20 12 A8 8 0 1 1 17.66 6.34" }),
    Object.freeze({ d: "M17.66 1.84 V6.34 H13.16" }),
  ]),
  // Two sheets, one over the other.
  copy: Object.freeze([
    Object.freeze({ d: "M9 9 H20 V20 H9 Z" }),
    Object.freeze({ d: "M5 15 V4 H15" }),
  ]),
  check: Object.freeze([Object.freeze({ d: "M4.5 12.5 L9.5 17.5 L19.5 6.5" })]),
});

/** The SVG attributes of a sign's drawing (the <svg>) and of each of its shapes. */
export function iconParts(name) {
  const shapes = ICONS[name];
  if (!shapes) throw new Error(`no icon named ${JSON.stringify(name)}`);
  return {
    svg: {
      class: `runner-icon runner-icon-${name}`,
      viewBox: "0 0 24 24",
      width: "16",
      height: "16",
      "aria-hidden": "true",
      focusable: "false",
    },
    shapes: shapes.map(({ d, filled }) => (filled
      ? { d, fill: "currentColor", stroke: "none" }
      : {
        d,
        fill: "none",
        stroke: "currentColor",
        "stroke-width": "2",
        "stroke-linecap": "round",
        "stroke-linejoin": "round",
      })),
  };
}
