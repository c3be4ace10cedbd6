"""Views of micrograd's objects: drawings, SVG, the backward pass step by step, charts.

The engine and the network (:mod:`micrograd.engine`, :mod:`micrograd.nn`)
need none of this; importing :mod:`micrograd` or this package imports neither
graphviz nor matplotlib.  Each module is one kind of view:

* :mod:`micrograd.viz.labels`: what every drawing calls a node (its name,
  how it was computed, its numbers to four decimals);
* :mod:`micrograd.viz.draw`: :func:`~micrograd.viz.draw.draw_dot` and
  :func:`~micrograd.viz.draw.draw_mlp`, a graph and a network as Graphviz
  graphs (needs the ``graphviz`` package: ``pip install "micrograd-book[draw]"``);
* :mod:`micrograd.viz.paths`: the chain rule as paths, from a node up to the output,
  each path a product of local derivatives and the gradient their sum
  (:func:`~micrograd.viz.paths.chain_paths`), and drawn
  (:func:`~micrograd.viz.paths.draw_paths`);
* :mod:`micrograd.viz.svg`: such a graph laid out by Graphviz's ``dot`` as SVG
  (:func:`~micrograd.viz.svg.render_svg`), and made ready to sit inside an HTML
  page (:func:`~micrograd.viz.svg.inline_svg`);
* :mod:`micrograd.viz.stepper`: the backward pass one rule at a time, as frames
  a reader steps through;
* :mod:`micrograd.viz.chart`: a chart described as plain data
  (:class:`~micrograd.viz.chart.Chart`), and a :class:`~micrograd.viz.chart.Figure`
  of stacked charts that matplotlib draws (``pip install "micrograd-book[plot]"``);
* :mod:`micrograd.viz.plot`: the charts of the book: classification data, a
  classifier's decision regions, a training run's loss and accuracy.
"""
