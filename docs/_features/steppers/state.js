// The steppers' state in the session, made by whoever needs it first: predict mode
// (docs/_features/predict/) listens for new steppers before their module has loaded.

/**
 * The steppers' state in the session (session.features, under "steppers"): each
 * element's controller, who hears of a new one, and whether the page's set-up of
 * them is done.
 */
export function steppersOf(session) {
  if (!session.features.has("steppers")) {
    session.features.set("steppers", { controllers: new Map(), listeners: [], started: false });
  }
  return session.features.get("steppers");
}
