-- Surface words of the lexical index: each folded, unstemmed word (and joined compound) seen in
-- an indexed field, with the stemmed term it is counted under. Prefix queries look words up
-- here, so "generaliz*" finds "generalization" although the index stores its stem "general".
CREATE TABLE search_words (
    word TEXT PRIMARY KEY,
    term_id INTEGER NOT NULL
) WITHOUT ROWID;
