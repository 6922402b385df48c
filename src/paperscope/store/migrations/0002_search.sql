-- Search: paper embeddings (keyed by the text they were computed from) and the lexical
-- postings of each paper (term counts per field) from which the in-memory BM25F index is built.

-- One vector per (model, text): papers.text_hash = content_hash(title, abstract), which is also
-- the text embedded, so a paper whose title or abstract changes simply has no vector until
-- `embed_missing` runs, and two papers with the same text share one vector.
CREATE TABLE embeddings (
    model TEXT NOT NULL,                  -- e.g. all-MiniLM-L6-v2-onnx-int8/256
    text_hash TEXT NOT NULL,              -- papers.text_hash the vector was computed from
    dim INTEGER NOT NULL,
    vector BLOB NOT NULL,                 -- float16 little-endian, L2-normalised
    added_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')),
    PRIMARY KEY (model, text_hash)
);

-- Lexical vocabulary: stemmed term -> id (terms are never renumbered).
CREATE TABLE search_terms (
    id INTEGER PRIMARY KEY,
    term TEXT NOT NULL UNIQUE
);

-- A paper's postings: field lengths and (term id, field, count) triples, packed (see
-- search/lexical.py). Deleted by the trigger below whenever an indexed field changes.
CREATE TABLE paper_terms (
    paper_rowid INTEGER PRIMARY KEY REFERENCES papers(rowid) ON DELETE CASCADE,
    tokenizer TEXT NOT NULL,              -- tokenizer version the postings were made with
    lengths BLOB NOT NULL,                -- uint16 per field
    postings BLOB NOT NULL                -- uint32 (term id << 3 | field), then uint16 counts
);

CREATE TRIGGER paper_terms_stale AFTER UPDATE OF title, label, abstract, authors, keywords ON papers BEGIN
    DELETE FROM paper_terms WHERE paper_rowid = new.rowid;
END;

-- Every change to the postings bumps a generation; the lexical snapshot records the generation
-- it was built from, so a stale snapshot is never used.
CREATE TABLE search_state (
    key TEXT PRIMARY KEY,
    value INTEGER NOT NULL
);
INSERT INTO search_state(key, value) VALUES ('postings_generation', 0);
CREATE TRIGGER paper_terms_added AFTER INSERT ON paper_terms BEGIN
    UPDATE search_state SET value = value + 1 WHERE key = 'postings_generation';
END;
CREATE TRIGGER paper_terms_removed AFTER DELETE ON paper_terms BEGIN
    UPDATE search_state SET value = value + 1 WHERE key = 'postings_generation';
END;

-- The term-major BM25F matrix of the whole library, saved after each ingest so a process loads
-- it without re-sorting postings: arrays split into parts of at most 64 MB.
CREATE TABLE search_snapshots (
    name TEXT NOT NULL,                   -- 'lexical/meta', 'lexical/indices', ...
    part INTEGER NOT NULL,
    generation INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (name, part)
);
