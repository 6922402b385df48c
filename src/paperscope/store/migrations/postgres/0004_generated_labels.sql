-- Titles and TL;DRs written by the user's own language model, as in SQLite's 0009.
CREATE TABLE generated_labels (
    paper_id TEXT PRIMARY KEY REFERENCES papers(id) ON DELETE CASCADE,
    title TEXT NOT NULL,
    tldr TEXT,
    model TEXT NOT NULL,
    score DOUBLE PRECISION,
    created_at TEXT NOT NULL DEFAULT iso_now()
);
