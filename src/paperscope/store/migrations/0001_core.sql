-- Core schema: papers, collections (a venue/year list), memberships, source files, identity keys.
CREATE TABLE papers (
    rowid INTEGER PRIMARY KEY,            -- FTS and vector row number
    id TEXT NOT NULL UNIQUE,              -- stable public id (sha1 of the first identity key)
    title TEXT,                           -- plain-text rendering, NULL when unknown
    title_source TEXT,                    -- as read (LaTeX kept)
    abstract TEXT NOT NULL,               -- plain-text rendering
    abstract_source TEXT NOT NULL,        -- as read (LaTeX kept)
    authors TEXT NOT NULL DEFAULT '[]',   -- JSON list of names
    keywords TEXT NOT NULL DEFAULT '[]',  -- JSON list
    status TEXT,                          -- Poster / Spotlight / Oral / ...
    urls TEXT NOT NULL DEFAULT '{}',      -- JSON {kind: url}
    external_id TEXT,                     -- e.g. OpenReview id
    label TEXT,                           -- derived display line (title when known)
    facts TEXT NOT NULL DEFAULT '{}',     -- JSON of derived facts (enrich/)
    facts_hash TEXT,                      -- content hash the facts were computed from
    text_hash TEXT NOT NULL,              -- hash of title+abstract (drives re-derivation)
    added_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now'))
);

-- Identity keys: normalised abstract ('a:...') and title+year ('t:...') -> paper.
CREATE TABLE paper_keys (
    key TEXT PRIMARY KEY,
    paper_id TEXT NOT NULL REFERENCES papers(id) ON DELETE CASCADE
);
CREATE INDEX paper_keys_paper ON paper_keys(paper_id);

CREATE TABLE collections (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,            -- "ICML 2024"
    venue TEXT NOT NULL,
    year INTEGER,
    added_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now'))
);

CREATE TABLE sources (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,            -- absolute path of the list file
    sha256 TEXT NOT NULL,
    format TEXT NOT NULL,
    ingested_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now'))
);

-- A paper's appearance in a collection, through a source file, at a position.
CREATE TABLE memberships (
    paper_id TEXT NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
    collection_id INTEGER NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
    source_id INTEGER NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    status TEXT,
    PRIMARY KEY (paper_id, collection_id, source_id)
);
CREATE INDEX memberships_collection ON memberships(collection_id, position);

-- Lexical index over the fields users search; kept in sync by triggers.
CREATE VIRTUAL TABLE papers_fts USING fts5(
    title, label, abstract, authors, keywords,
    content='papers', content_rowid='rowid',
    tokenize="porter unicode61 remove_diacritics 2"
);
CREATE TRIGGER papers_ai AFTER INSERT ON papers BEGIN
    INSERT INTO papers_fts(rowid, title, label, abstract, authors, keywords)
    VALUES (new.rowid, new.title, new.label, new.abstract, new.authors, new.keywords);
END;
CREATE TRIGGER papers_ad AFTER DELETE ON papers BEGIN
    INSERT INTO papers_fts(papers_fts, rowid, title, label, abstract, authors, keywords)
    VALUES ('delete', old.rowid, old.title, old.label, old.abstract, old.authors, old.keywords);
END;
CREATE TRIGGER papers_au AFTER UPDATE OF title, label, abstract, authors, keywords ON papers BEGIN
    INSERT INTO papers_fts(papers_fts, rowid, title, label, abstract, authors, keywords)
    VALUES ('delete', old.rowid, old.title, old.label, old.abstract, old.authors, old.keywords);
    INSERT INTO papers_fts(rowid, title, label, abstract, authors, keywords)
    VALUES (new.rowid, new.title, new.label, new.abstract, new.authors, new.keywords);
END;
