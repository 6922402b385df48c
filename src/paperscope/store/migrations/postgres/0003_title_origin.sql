-- Where a paper's title came from, as in SQLite's 0008.
ALTER TABLE papers ADD COLUMN title_origin TEXT;
ALTER TABLE papers ADD COLUMN title_score DOUBLE PRECISION;
