-- Titles and TL;DRs written by the user's own language model (`paperscope relabel`) for papers
-- whose lists gave no title: kept apart from real titles (papers.title) and derived labels
-- (papers.label), with the model that wrote them and when; `relabel --undo` deletes them. A real
-- title always wins: these are shown only while papers.title is NULL.
-- score: the title's embedding cosine to the paper's own abstract when it was checked.
CREATE TABLE generated_labels (
    paper_id TEXT PRIMARY KEY REFERENCES papers(id) ON DELETE CASCADE,
    title TEXT NOT NULL,
    tldr TEXT,
    model TEXT NOT NULL,
    score REAL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now'))
);
