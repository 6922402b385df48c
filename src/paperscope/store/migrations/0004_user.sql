-- Personal library: tags, marks (star, read, note) and "not relevant" dismissals.
-- Keyed by paper id WITHOUT foreign keys, so user data outlives a paper's removal (collection
-- removed, list re-ingested) and reattaches when the paper comes back. Paper ids are stable
-- hashes of the abstract; `user_keys` also remembers the paper's identity keys, so a paper that
-- comes back under another id (say, a variant abstract with the same title and year) gets its
-- user data moved over by the `user_reattach` trigger.
CREATE TABLE user_tags (
    paper_id TEXT NOT NULL,
    tag TEXT NOT NULL COLLATE NOCASE,
    added_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')),
    PRIMARY KEY (paper_id, tag)
);
CREATE INDEX user_tags_tag ON user_tags(tag, paper_id);

CREATE TABLE user_marks (
    paper_id TEXT PRIMARY KEY,
    starred INTEGER NOT NULL DEFAULT 0,
    read_at TEXT,                          -- NULL: unread
    note TEXT,
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now'))
);

-- "Not relevant": explicit negatives for recommendations; tag '' means "for every tag".
CREATE TABLE user_dismissals (
    paper_id TEXT NOT NULL,
    tag TEXT NOT NULL DEFAULT '' COLLATE NOCASE,
    added_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')),
    PRIMARY KEY (paper_id, tag)
);

-- Identity keys (copied from paper_keys) of every paper that carries user data.
CREATE TABLE user_keys (
    key TEXT NOT NULL,
    paper_id TEXT NOT NULL,
    PRIMARY KEY (key, paper_id)
);
CREATE INDEX user_keys_paper ON user_keys(paper_id);

-- A new identity key that an orphaned paper id (user data, no paper) also had: move that user
-- data to the paper now holding the key. Rows that would collide with the new paper's own user
-- data keep the new paper's values.
CREATE TRIGGER user_reattach AFTER INSERT ON paper_keys
WHEN EXISTS (SELECT 1 FROM user_keys uk WHERE uk.key = new.key AND uk.paper_id <> new.paper_id
             AND uk.paper_id NOT IN (SELECT id FROM papers))
BEGIN
    UPDATE OR IGNORE user_tags SET paper_id = new.paper_id WHERE paper_id IN (
        SELECT uk.paper_id FROM user_keys uk WHERE uk.key = new.key AND uk.paper_id <> new.paper_id
        AND uk.paper_id NOT IN (SELECT id FROM papers));
    UPDATE OR IGNORE user_marks SET paper_id = new.paper_id WHERE paper_id IN (
        SELECT uk.paper_id FROM user_keys uk WHERE uk.key = new.key AND uk.paper_id <> new.paper_id
        AND uk.paper_id NOT IN (SELECT id FROM papers));
    UPDATE OR IGNORE user_dismissals SET paper_id = new.paper_id WHERE paper_id IN (
        SELECT uk.paper_id FROM user_keys uk WHERE uk.key = new.key AND uk.paper_id <> new.paper_id
        AND uk.paper_id NOT IN (SELECT id FROM papers));
    INSERT OR IGNORE INTO user_keys(key, paper_id)
        SELECT k.key, new.paper_id FROM user_keys k WHERE k.paper_id IN (
            SELECT uk.paper_id FROM user_keys uk WHERE uk.key = new.key AND uk.paper_id <> new.paper_id
            AND uk.paper_id NOT IN (SELECT id FROM papers));
    DELETE FROM user_tags WHERE paper_id IN (
        SELECT uk.paper_id FROM user_keys uk WHERE uk.key = new.key AND uk.paper_id <> new.paper_id
        AND uk.paper_id NOT IN (SELECT id FROM papers));
    DELETE FROM user_marks WHERE paper_id IN (
        SELECT uk.paper_id FROM user_keys uk WHERE uk.key = new.key AND uk.paper_id <> new.paper_id
        AND uk.paper_id NOT IN (SELECT id FROM papers));
    DELETE FROM user_dismissals WHERE paper_id IN (
        SELECT uk.paper_id FROM user_keys uk WHERE uk.key = new.key AND uk.paper_id <> new.paper_id
        AND uk.paper_id NOT IN (SELECT id FROM papers));
    DELETE FROM user_keys WHERE paper_id IN (
        SELECT uk.paper_id FROM user_keys uk WHERE uk.key = new.key AND uk.paper_id <> new.paper_id
        AND uk.paper_id NOT IN (SELECT id FROM papers));
END;
