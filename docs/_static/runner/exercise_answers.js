// The exercises' checks, on the worker's side: an add-on of the runner's worker
// (layouts.js registerAnswer).  The page's exercises.js asks "exercises:check"
// {exercise, cells} once the reader's cell has run (cells: each exercise cell's file name
// and its step); the kernel's add-on exercises.py
// checks the page's namespace with the book's checks (book_runtime.checks, in the
// same wheel) and gives the result as JSON.

import { pyimport, registerAnswer } from "./layouts.js";

registerAnswer("exercises", "check", ({ exercise, cells }) =>
  JSON.parse(pyimport("book_runtime.exercises").check(exercise, JSON.stringify(cells || {}))));
