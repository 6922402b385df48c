"""Search: hybrid lexical + semantic ranking, related papers.

    engine.py      SearchEngine(store, embedder): the component the facade builds; owns the
                   loaded indexes and forgets them on invalidate()
    query.py       the query language (words, "phrases", prefix*, -exclusions, filters)
    translate.py   Chinese queries to English, offline (glossary, then the dictionary)
    cedict.py      the CC-CEDICT word list behind translate.py
    tokens.py      lexical terms shared by index, queries and highlights (words, folding,
                   stemming and stop words from paperscope/words.py)
    postings.py    per-paper term counts, stored once per paper text
    lexical.py     BM25F as one term-major sparse matrix (snapshot saved in the library)
    snapshots.py   row lookups shared by the indexes (sorted row numbers, binary search)
    embedder.py    all-MiniLM-L6-v2 (int8 ONNX) on onnxruntime
    model_build.py the int8 embedding model, built once from the packaged weights and cached
    semantic.py    embeddings at ingest (by text hash), the vector matrix, nearest neighbours
    filters.py     the structured Filter narrowed by the query's filters, phrases, exclusions
    fusion.py      z-score fusion of BM25F and cosine (reciprocal-rank fusion as baseline)
    rerank.py      hand-set second stage (coverage, cosine gap, bigrams)
    ranker.py      learned second stage (features, linear model in data/ranker.json) and the
                   weak-match grade
    hybrid.py      search(): rank, fuse, dress hits with snippets and explanations
    snippets.py    highlighted snippets, matched fields
    vectors.py     term vectors (tf-idf) for paper-to-paper similarity
    related.py     related(): neighbours of a paper or of a user's text
"""
