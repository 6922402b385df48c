"""Analysis of a set of papers: topics (topics.py: spherical k-means + c-TF-IDF labels), a 2-D
map (layout.py: seeded t-SNE), venue comparison (compare.py: weighted log-odds), and their
results stored in the library (cache.py). `service.Analysis` is the component the `Library`
facade builds from a store and the library's vectors; drawing the map and the comparison is
presentation and lives with the CLI (`cli/render_map.py`, `cli/render_compare.py`).

The algorithm modules are pure functions over (ids, texts, vectors)."""
