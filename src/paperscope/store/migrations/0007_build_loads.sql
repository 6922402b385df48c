-- Build shards loaded into this library (`paperscope load DIR`): a shard whose fingerprint is
-- already here is skipped, so loading an updated build touches only what changed.
CREATE TABLE build_loads (
    shard TEXT PRIMARY KEY,               -- shard name in the build folder, e.g. "00003"
    fingerprint TEXT NOT NULL,            -- sha256 of the shard's content (manifest.json)
    loaded_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ','now'))
);
