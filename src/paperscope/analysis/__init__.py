"""Analysis of a set of papers: topics (topics.py: spherical k-means + c-TF-IDF labels), a 2-D
map (layout.py: seeded t-SNE), venue comparison (compare.py: weighted log-odds), their cache in
the library file (cache.py, service.py) and drawings (render_map.py, render_compare.py).

The algorithm modules are pure functions over (ids, texts, vectors); `service` wires them to a
`Library`."""
