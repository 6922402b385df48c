-- Build shards loaded into this library (`paperscope load DIR`), as in SQLite's 0007.
CREATE TABLE build_loads (
    shard TEXT PRIMARY KEY,
    fingerprint TEXT NOT NULL,
    loaded_at TEXT NOT NULL DEFAULT iso_now()
);
