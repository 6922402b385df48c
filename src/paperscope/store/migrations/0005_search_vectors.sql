-- Search: a generation counter for the vector set (any change to embeddings or to which text a
-- paper has bumps it), so the contiguous vector snapshot in search_snapshots is used only while
-- it is current. A cold `paperscope search` then reads one blob instead of joining every row.
INSERT OR IGNORE INTO search_state(key, value) VALUES ('vectors_generation', 0);
CREATE TRIGGER embeddings_added AFTER INSERT ON embeddings BEGIN
    UPDATE search_state SET value = value + 1 WHERE key = 'vectors_generation';
END;
CREATE TRIGGER embeddings_removed AFTER DELETE ON embeddings BEGIN
    UPDATE search_state SET value = value + 1 WHERE key = 'vectors_generation';
END;
CREATE TRIGGER papers_vectors_added AFTER INSERT ON papers BEGIN
    UPDATE search_state SET value = value + 1 WHERE key = 'vectors_generation';
END;
CREATE TRIGGER papers_vectors_removed AFTER DELETE ON papers BEGIN
    UPDATE search_state SET value = value + 1 WHERE key = 'vectors_generation';
END;
CREATE TRIGGER papers_vectors_changed AFTER UPDATE OF text_hash ON papers BEGIN
    UPDATE search_state SET value = value + 1 WHERE key = 'vectors_generation';
END;
