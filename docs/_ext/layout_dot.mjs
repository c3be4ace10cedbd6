// The book's `dot` command: Graphviz (viz.js, WebAssembly) under Node.js, called as `dot` is.
//
//   node layout_dot.mjs --viz PATH/viz.js [-Tformat] [-Kengine] [-o FILE] [-V] [FILE]
//
// layout_program.py writes a `dot` script that runs this, and puts it first on the build's
// PATH: the graphviz package (`dot -Kdot -Tsvg`, the graph on standard input) and
// micrograd.viz.svg.render_svg (`dot -Tsvg`) call it as they would call Graphviz's own.
// Only the options they use are taken; any other is refused by name, never ignored.
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

/** The command line as { viz, format, engine, output, version, input }, or an Error. */
export function parseArguments(args) {
  const options = { viz: null, format: "dot", engine: "dot", output: null, version: false, input: null };
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    const value = () => arg.slice(2) || args[++i];
    if (arg === "--viz") options.viz = args[++i];
    else if (arg.startsWith("-T")) options.format = value();
    else if (arg.startsWith("-K")) options.engine = value();
    else if (arg.startsWith("-o")) options.output = value();
    else if (arg === "-V") options.version = true;
    else if (arg.startsWith("-") && arg !== "-") return new Error(`unsupported option ${arg}`);
    else if (options.input === null) options.input = arg;
    else return new Error(`one graph at a time: ${options.input}, then ${arg}`);
  }
  if (!options.viz) return new Error("--viz PATH (the viz.js module) is required");
  return options;
}

async function readInput(input) {
  if (input !== null && input !== "-") return readFileSync(input, "utf8");
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

async function main(args) {
  const options = parseArguments(args);
  if (options instanceof Error) {
    process.stderr.write(`dot (viz.js): ${options.message}\n`);
    return 2;
  }
  const viz = await (await import(pathToFileURL(options.viz).href)).instance();
  if (options.version) {
    const { version } = JSON.parse(readFileSync(new URL("../package.json", pathToFileURL(options.viz)), "utf8"));
    process.stderr.write(`dot - graphviz version ${viz.graphvizVersion} (viz.js ${version})\n`);
    return 0;
  }
  const result = viz.render(await readInput(options.input), { format: options.format, engine: options.engine });
  for (const error of result.errors) process.stderr.write(`${error.level ?? "error"}: ${error.message}\n`);
  if (result.status !== "success") return 1;
  if (options.output) writeFileSync(options.output, result.output);
  else process.stdout.write(result.output);
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
