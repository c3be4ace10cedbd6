// Two small helpers for making the runner's elements.

export function element(tag, className, text) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  if (text !== undefined) el.textContent = text;
  return el;
}

export function button(className, label, onClick) {
  const b = element("button", `runner-button ${className}`, label);
  b.type = "button";
  b.addEventListener("click", onClick);
  return b;
}
