"""Rule books: sentences by rule area, renderers, differences and comparisons."""
