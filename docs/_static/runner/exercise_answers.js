// The exercises' checks, on the worker's side: an add-on of the runner's worker
// (layouts.js registerAnswer).  The page's exercises.js asks "exercises:check"
// {exercise} once the reader's cell has run; the kernel's add-on exercises.py
// checks the page's namespace with the book's checks (book_runtime.checks, in the
// same wheel) and gives the result as JSON.

import { pyimport, registerAnswer } from "./layouts.js";

registerAnswer("exercises", "check", ({ exercise }) =>
  JSON.parse(pyimport("book_runtime.exercises").check(exercise)));
