// Small helpers for making the runner's elements.

import { iconParts } from "./icons.js";

const SVG = "http://www.w3.org/2000/svg";

export function element(tag, className, text) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text !== undefined) el.textContent = text;
  return el;
}

/** A sign of icons.js as an inline SVG, hidden from screen readers. */
export function icon(name) {
  const { svg, shapes } = iconParts(name);
  const drawing = document.createElementNS(SVG, "svg");
  for (const [key, value] of Object.entries(svg)) drawing.setAttribute(key, value);
  for (const shape of shapes) {
    const path = document.createElementNS(SVG, "path");
    for (const [key, value] of Object.entries(shape)) path.setAttribute(key, value);
    drawing.append(path);
  }
  return drawing;
}

/** A button showing label, after the sign named iconName (icons.js) if there is one. */
export function button(className, label, onClick, iconName = null) {
  const b = element("button", `runner-button ${className}`, label);
  if (iconName !== null) b.prepend(icon(iconName));
  b.type = "button";
  b.addEventListener("click", onClick);
  return b;
}
