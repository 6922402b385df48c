-- Derived analysis state: topic models and 2-D map layouts, cached by a hash of their inputs.
-- A run belongs to a scope (e.g. "venue=ICML|year=2024" at level "coarse"); it is refitted only
-- when its inputs (the papers' ids and vectors) change beyond what nearest-centroid assignment
-- of new papers can absorb.
CREATE TABLE analysis_runs (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,                   -- 'topics' | 'map'
    scope TEXT NOT NULL,                  -- which papers: venue/year/collections/ids hash
    level TEXT NOT NULL DEFAULT '',       -- topics: coarse | fine | N; map: ''
    input_hash TEXT NOT NULL,             -- sha1 over the fitted (paper id, vector) rows + params
    params TEXT NOT NULL DEFAULT '{}',    -- JSON: algorithm, seed, vector source, version
    centroids BLOB,                       -- topics: float32 (k, d) matrix
    dims INTEGER,                         -- columns of `centroids`
    model TEXT NOT NULL DEFAULT '{}',     -- topics: JSON labels, terms, representatives
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now')),
    UNIQUE (kind, scope, level)
);

-- One row per paper of a run: its topic (topics) or coordinates (map). `fitted` = 1 when the
-- paper took part in the fit, 0 when it was placed later without refitting.
CREATE TABLE analysis_points (
    run_id INTEGER NOT NULL REFERENCES analysis_runs(id) ON DELETE CASCADE,
    paper_id TEXT NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
    row_hash TEXT NOT NULL,               -- hash of the paper's vector when it was placed
    topic INTEGER,
    score REAL,                           -- cosine to the topic centroid
    x REAL,
    y REAL,
    fitted INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (run_id, paper_id)
);
CREATE INDEX analysis_points_paper ON analysis_points(paper_id);
