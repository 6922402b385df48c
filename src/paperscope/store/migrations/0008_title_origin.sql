-- Where a paper's title came from: the list file's name or the remote source's name
-- (openreview, virtual, pmlr, arxiv); NULL for a title-less paper (its label is derived).
-- title_score: the fuzzy identity score when the title arrived through a fuzzy abstract match
-- (NULL when the abstracts matched exactly). Papers stored before this migration keep NULL.
ALTER TABLE papers ADD COLUMN title_origin TEXT;
ALTER TABLE papers ADD COLUMN title_score REAL;
