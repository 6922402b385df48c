"""The queries both backends write the same way, once: the SQL text is the same in SQLite and
PostgreSQL but for the parameter mark, which comes from the backend's `filter_sql.Dialect`
(`?` or `%s`). Mixed into `SQLiteStore` and `PostgresStore` after their own mixins; what
differs between the two (upserts, lists of ids, full-text search, bulk loads, locks) stays in
`sqlite_*.py` and `postgres_*.py`. Paper rows cross this layer encoded by `rows.py`."""
from __future__ import annotations

import json
from typing import Any, Iterable, Iterator, Mapping, Sequence

import numpy as np

from ..filters import Filter
from ..model import Paper
from .filter_sql import Dialect, ordered_sql
from .host import Host
from .rows import ANY_TAG, BULK_COLUMNS, PAPER_COLUMNS, PAPER_FIELDS, decode_paper, encode_facts, encode_paper

PART_BYTES = 64 << 20  # saved index arrays are stored in parts of this size
_STALE_FACTS = "(facts_hash IS NULL OR facts_hash != text_hash || ?)"


class SharedQueries(Host):
    conn: Any
    dialect: Dialect

    def _sql(self, text: str) -> str:
        """`text` with `?` marks in this backend's parameter style (no `?` is ever in a literal)."""
        return text if self.dialect.mark == "?" else text.replace("?", self.dialect.mark)

    def _rows(self, text: str, args: Sequence[Any] = ()) -> list[Any]:
        return self.conn.execute(self._sql(text), args).fetchall()

    def _one(self, text: str, args: Sequence[Any] = ()) -> Any:
        return self.conn.execute(self._sql(text), args).fetchone()

    def _many(self, text: str, rows: list[Sequence[Any]]) -> None:
        raise NotImplementedError  # executemany lives on the connection (SQLite) or a cursor

    # ------------------------------------------------------------------ papers
    def paper_for_keys(self, keys: Iterable[str]) -> str | None:
        for key in keys:
            row = self._one("SELECT paper_id FROM paper_keys WHERE key = ?", (key,))
            if row:
                return row[0]
        return None

    def paper_row(self, paper_id: str) -> Mapping[str, Any] | None:
        """The stored columns of a paper (`rows.PAPER_FIELDS`), lists and dicts decoded."""
        row = self._one(f"SELECT {PAPER_COLUMNS} FROM papers WHERE id = ?", (paper_id,))
        return decode_paper(dict(zip(PAPER_FIELDS, row))) if row else None

    def insert_paper(self, values: dict[str, Any]) -> None:
        """A new paper; authors, keywords, urls and facts as Python lists and dicts."""
        row = encode_paper(values)
        cols = ", ".join(row)  # column names come from ingest.py, never from a list
        marks = ", ".join("?" for _ in row)
        self.conn.execute(self._sql(f"INSERT INTO papers ({cols}) VALUES ({marks})"), list(row.values()))

    def update_paper(self, paper_id: str, values: dict[str, Any]) -> None:
        """Change some columns of a paper (lists and dicts as for `insert_paper`)."""
        self._update_row(paper_id, encode_paper(values))

    def _update_row(self, paper_id: str, row: dict[str, Any]) -> None:
        raise NotImplementedError  # each backend stamps updated_at its own way

    def papers(self, f: Filter | None = None, *, limit: int | None = None, offset: int = 0) -> list[Paper]:
        """Papers passing `f`, in list order (`limit`/`offset` page through them)."""
        ids = self.ordered_ids(f or Filter())
        page = ids[offset:offset + limit] if limit is not None else ids[offset:]
        found = self.papers_by_id(page)
        return [found[i] for i in page if i in found]

    def count_papers(self) -> int:
        return int(self._one("SELECT COUNT(*) FROM papers")[0])

    def collection_stats(self) -> list[dict[str, Any]]:
        rows = self._rows("SELECT c.name, c.venue, c.year, COUNT(DISTINCT m.paper_id), COUNT(DISTINCT m.source_id) "
                          "FROM collections c LEFT JOIN memberships m ON m.collection_id = c.id "
                          "GROUP BY c.id ORDER BY c.id")
        return [{"name": r[0], "venue": r[1], "year": r[2], "papers": r[3], "lists": r[4]} for r in rows]

    def dump_memberships(self) -> Iterator[tuple]:
        """(paper id, collection name, source path, position, status) of every membership."""
        yield from self.conn.execute(
            "SELECT m.paper_id, c.name, s.path, m.position, m.status FROM memberships m "
            "JOIN collections c ON c.id = m.collection_id JOIN sources s ON s.id = m.source_id ORDER BY c.id, s.id")

    # ------------------------------------------------------------------ filtered lists
    def ordered_ids(self, f: Filter, sort: str = "list") -> list[str]:
        """Ids of every paper passing `f`, in display order (sort: list, type, title, recent)."""
        if f.ids is not None and not f.ids:
            return []
        sql, args = ordered_sql(f, self.dialect, sort)
        return [r[0] for r in self.conn.execute(sql, args)]

    def ordered_rowids(self, f: Filter, sort: str = "list") -> np.ndarray:
        """Row numbers (the search indexes' key) of the papers passing `f`, in `sort` order."""
        if f.ids is not None and not f.ids:
            return np.zeros(0, np.int64)
        sql, args = ordered_sql(f, self.dialect, sort, select="p.rowid")
        return np.fromiter((r[0] for r in self.conn.execute(sql, args)), dtype=np.int64)

    def facet_counts(self, f: Filter) -> dict[str, dict[str, int]]:
        """Counts by paper type and status of the papers passing `f` (filter menus)."""
        sql, args = ordered_sql(f, self.dialect, "rowid", select=f"{self.dialect.paper_type()} AS t, p.status AS s")
        out: dict[str, dict[str, int]] = {}
        for name, col in (("paper_type", "t"), ("status", "s")):
            rows = self.conn.execute(f"SELECT {col}, COUNT(*) FROM ({sql}) q GROUP BY 1 ORDER BY 2 DESC, 1", args)
            out[name] = {str(v): n for v, n in rows if v is not None}
        return out

    def passes(self, f: Filter) -> np.ndarray:
        """Row numbers of the papers passing `f`, ascending."""
        return np.sort(self.ordered_rowids(f, "rowid"))

    # ------------------------------------------------------------------ lookups
    def has_paper(self, paper_id: str) -> bool:
        return self._one("SELECT 1 FROM papers WHERE id = ?", (paper_id,)) is not None

    def ids_with_prefix(self, prefix: str, limit: int = 2) -> list[str]:
        like = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        return [r[0] for r in self._rows("SELECT id FROM papers WHERE id LIKE ? ESCAPE '\\' ORDER BY id LIMIT ?",
                                         (like, int(limit)))]

    def rowid_of(self, paper_id: str) -> int | None:
        row = self._one("SELECT rowid FROM papers WHERE id = ?", (paper_id,))
        return int(row[0]) if row else None

    def rowids_of_ids(self) -> dict[str, int]:
        """{paper id: row number} of the whole library."""
        return dict(self._rows("SELECT id, rowid FROM papers"))

    def all_ids(self) -> list[str]:
        """Every paper id, oldest first."""
        return [r[0] for r in self._rows("SELECT id FROM papers ORDER BY rowid")]

    def paper_texts(self) -> Iterator[tuple[str, str | None, str | None, str]]:
        """(id, title, label, abstract) of every paper, oldest first."""
        yield from self.conn.execute("SELECT id, title, label, abstract FROM papers ORDER BY rowid")

    def papers_stamp(self) -> tuple:
        """Changes whenever a paper is added, changed or removed."""
        return tuple(self._one("SELECT COUNT(*), MAX(updated_at), MAX(rowid) FROM papers"))

    def citation_rows(self) -> Iterator[dict[str, Any]]:
        """What citation keys are made from, for every paper, oldest first."""
        rows = self.conn.execute(
            "SELECT p.id, p.title, p.label, substr(p.abstract, 1, 300), p.authors, c.venue, c.year "
            "FROM papers p LEFT JOIN (SELECT m.paper_id, MIN(m.collection_id) AS cid FROM memberships m "
            "GROUP BY m.paper_id) first ON first.paper_id = p.id LEFT JOIN collections c ON c.id = first.cid "
            "ORDER BY p.rowid")
        for r in rows:
            yield {"id": r[0], "title": r[1], "label": r[2], "abstract": r[3],
                   "authors": json.loads(r[4] or "[]"), "venue": r[5], "year": r[6]}

    def author_lists(self) -> Iterator[tuple[int, str, list[str]]]:
        """(row number, id, author names as written) of every paper with authors, oldest first
        (the expertise component's author index)."""
        rows = self.conn.execute("SELECT rowid, id, authors FROM papers WHERE authors <> '[]' ORDER BY rowid")
        for rowid, pid, authors in rows:
            try:
                names = json.loads(authors or "[]")
            except ValueError:
                continue
            if isinstance(names, list):
                yield int(rowid), pid, [str(n) for n in names if isinstance(n, str) and n.strip()]

    # ------------------------------------------------------------------ derived facts
    def stale_facts_count(self, version: str) -> int:
        return int(self._one(f"SELECT COUNT(*) FROM papers WHERE {_STALE_FACTS}", (version,))[0])

    def stale_facts(self, version: str, after: int, limit: int) -> list[dict[str, Any]]:
        """Papers whose facts are older than their text or than `version`, by row number."""
        rows = self._rows(f"SELECT rowid, id, title, abstract, text_hash FROM papers WHERE {_STALE_FACTS} "
                          "AND rowid > ? ORDER BY rowid LIMIT ?", (version, after, limit))
        return [{"rowid": r[0], "id": r[1], "title": r[2], "abstract": r[3], "text_hash": r[4]} for r in rows]

    def save_facts(self, updates: list[tuple[dict[str, Any], str | None, str, str]]) -> None:
        """(facts, label, facts hash, paper id) rows; call inside a transaction."""
        self._many("UPDATE papers SET facts = ?, label = ?, facts_hash = ? WHERE id = ?",
                   [(encode_facts(facts), label, stamp, pid) for facts, label, stamp, pid in updates])

    # ------------------------------------------------------------------ user marks
    def read_at(self, paper_id: str) -> str | None:
        row = self._one("SELECT read_at FROM user_marks WHERE paper_id = ?", (paper_id,))
        return row[0] if row else None

    def user_fields(self, paper_ids: list[str]) -> dict[str, dict[str, Any]]:
        """The user-data fields of paper JSON, for each id."""
        out: dict[str, dict[str, Any]] = {
            pid: {"tags": [], "starred": False, "read": False, "read_at": None, "note": None,
                  "irrelevant": False, "irrelevant_tags": []} for pid in paper_ids}
        d = self.dialect
        for i in range(0, len(paper_ids), 500):
            which, args = d.any_of("paper_id", list(paper_ids[i:i + 500]))
            for pid, tag in self._rows(f"SELECT paper_id, tag FROM user_tags WHERE {which} "
                                       f"ORDER BY paper_id, {d.ci_order('tag')}", args):
                out[pid]["tags"].append(tag)
            for pid, starred, read_at, note in self._rows(
                    f"SELECT paper_id, starred, read_at, note FROM user_marks WHERE {which}", args):
                out[pid].update(starred=bool(starred), read=read_at is not None, read_at=read_at, note=note)
            for pid, tag in self._rows(f"SELECT paper_id, tag FROM user_dismissals WHERE {which} ORDER BY tag", args):
                if tag == ANY_TAG:
                    out[pid]["irrelevant"] = True
                else:
                    out[pid]["irrelevant_tags"].append(tag)
        return out

    def marked_ids(self, *, starred: bool = False, read: bool = False, noted: bool = False) -> list[str]:
        """Papers with a star / a read mark / a note (any mark when no filter), most recently
        changed first."""
        where = ["1 = 1"]
        if starred:
            where.append("m.starred = 1")
        if read:
            where.append("m.read_at IS NOT NULL")
        if noted:
            where.append("m.note IS NOT NULL")
        return [r[0] for r in self._rows(
            f"SELECT m.paper_id FROM user_marks m JOIN papers p ON p.id = m.paper_id "
            f"WHERE {' AND '.join(where)} ORDER BY m.updated_at DESC, p.rowid")]

    # ------------------------------------------------------------------ analysis runs
    def analysis_run(self, kind: str, scope: str, level: str = "") -> dict[str, Any] | None:
        """{input_hash, params, centroids (bytes|None), dims, model, points: [(paper id, row
        hash, topic, score, x, y, fitted)]} or None."""
        row = self._one("SELECT id, input_hash, params, centroids, dims, model FROM analysis_runs "
                        "WHERE kind = ? AND scope = ? AND level = ?", (kind, scope, level))
        if row is None:
            return None
        points = self._rows("SELECT paper_id, row_hash, topic, score, x, y, fitted FROM analysis_points "
                            "WHERE run_id = ?", (row[0],))
        return {"input_hash": row[1], "params": json.loads(row[2]),
                "centroids": bytes(row[3]) if row[3] is not None else None, "dims": row[4],
                "model": json.loads(row[5]), "points": [tuple(p) for p in points]}

    def stored_topic(self, paper_id: str, scope: str, level: str = "coarse") -> dict[str, Any] | None:
        """The topic a stored topic run of `scope` gave a paper, or None (never fits)."""
        row = self._one("SELECT pt.topic, r.model FROM analysis_points pt JOIN analysis_runs r ON r.id = pt.run_id "
                        "WHERE r.kind = 'topics' AND r.scope = ? AND r.level = ? AND pt.paper_id = ?",
                        (scope, level, paper_id))
        if row is None or row[0] is None:
            return None
        labels = json.loads(row[1] or "{}").get("labels") or []
        topic = int(row[0])
        return {"id": topic, "label": labels[topic] if 0 <= topic < len(labels) else str(topic)}

    # ------------------------------------------------------------------ bulk export
    def rowid_span(self) -> tuple[int, int]:
        """(lowest, highest) paper row number; (0, 0) when there are no papers."""
        row = self._one("SELECT COALESCE(MIN(rowid), 0), COALESCE(MAX(rowid), 0) FROM papers")
        return int(row[0]), int(row[1])

    def export_papers(self, first: int, last: int) -> list[dict[str, Any]]:
        """Every stored column of the papers with first <= row number <= last, by row number."""
        cols = ", ".join(BULK_COLUMNS)
        rows = self._rows(f"SELECT rowid, {cols} FROM papers WHERE rowid BETWEEN ? AND ? ORDER BY rowid",
                          (int(first), int(last)))
        return [{"rowid": r[0], **{c: r[i + 1] for i, c in enumerate(BULK_COLUMNS)}} for r in rows]

    def export_memberships(self, first: int, last: int) -> list[dict[str, Any]]:
        """Memberships of the papers in a row-number span, with collection and source spelled out."""
        rows = self._rows(
            "SELECT m.paper_id, c.name, c.venue, c.year, s.path, s.sha256, s.format, m.position, m.status "
            "FROM memberships m JOIN papers p ON p.id = m.paper_id JOIN collections c ON c.id = m.collection_id "
            "JOIN sources s ON s.id = m.source_id WHERE p.rowid BETWEEN ? AND ? "
            "ORDER BY p.rowid, c.id, s.id", (int(first), int(last)))
        names = ("paper_id", "collection", "venue", "year", "source", "sha256", "format", "position", "status")
        return [dict(zip(names, r)) for r in rows]

    def export_keys(self, first: int, last: int) -> list[tuple[str, str]]:
        """(identity key, paper id) of the papers in a row-number span."""
        return [(r[0], r[1]) for r in self._rows(
            "SELECT k.key, k.paper_id FROM paper_keys k JOIN papers p ON p.id = k.paper_id "
            "WHERE p.rowid BETWEEN ? AND ? ORDER BY p.rowid, k.key", (int(first), int(last)))]

    def _bulk_update(self, papers: Sequence[dict[str, Any]], known: dict[str, dict[str, Any]],
                     counts: dict[str, int]) -> None:
        """Papers of a shard already in the library: updated only where a column differs."""
        for p in papers:
            old = known.get(p["id"])
            if old is None:
                continue
            changes = {c: p[c] for c in BULK_COLUMNS[1:] if old[c] != p[c]}
            if changes:
                self._update_row(p["id"], changes)
                counts["updated"] += 1
            else:
                counts["unchanged"] += 1

    # ------------------------------------------------------------------ index data
    def stale_posting_rowids(self, tokenizer: str) -> list[int]:
        """Papers without current postings (new, changed, or made by an older tokenizer)."""
        return [r[0] for r in self._rows(
            "SELECT p.rowid FROM papers p LEFT JOIN paper_terms t ON t.paper_rowid = p.rowid "
            "WHERE t.paper_rowid IS NULL OR t.tokenizer != ? ORDER BY p.rowid", (tokenizer,))]

    def paper_postings(self, rowid: int, tokenizer: str) -> bytes | None:
        row = self._one("SELECT postings FROM paper_terms WHERE paper_rowid = ? AND tokenizer = ?",
                        (int(rowid), tokenizer))
        return bytes(row[0]) if row else None

    def postings_complete(self) -> bool:
        """Every paper has postings (of some tokenizer)."""
        return bool(self._one("SELECT (SELECT COUNT(*) FROM papers) = (SELECT COUNT(*) FROM paper_terms)")[0])

    def snapshot_meta(self, name: str) -> dict[str, Any] | None:
        row = self._one("SELECT data FROM search_snapshots WHERE name = ? AND part = 0", (f"{name}/meta",))
        return json.loads(bytes(row[0])) if row else None

    def load_snapshot(self, name: str, gen: int, dtypes: Sequence[tuple[str, Any]]) -> dict[str, np.ndarray]:
        out = {}
        for key, dtype in dtypes:
            buf = bytearray()  # writable, so callers get ordinary arrays
            for (data,) in self._rows("SELECT data FROM search_snapshots WHERE name = ? AND generation = ? "
                                      "ORDER BY part", (f"{name}/{key}", gen)):
                buf += data
            out[key] = np.frombuffer(buf, dtype=dtype)
        return out

    def texts_to_embed(self, model: str) -> list[tuple[str, str | None, str]]:
        """(text hash, title, abstract) of every paper text without a `model` vector."""
        return [tuple(r) for r in self._rows(
            "SELECT p.text_hash, MIN(p.title), MIN(p.abstract) FROM papers p "
            "LEFT JOIN embeddings e ON e.model = ? AND e.text_hash = p.text_hash "
            "WHERE e.text_hash IS NULL GROUP BY p.text_hash ORDER BY MIN(p.rowid)", (model,))]


def snapshot_rows(name: str, gen: int, meta: dict[str, Any], arrays: dict[str, np.ndarray]) -> list[tuple]:
    """The rows of a saved index snapshot: its meta, then each array cut into parts."""
    rows = [(f"{name}/meta", 0, gen, json.dumps({**meta, "generation": gen}).encode())]
    for key, arr in arrays.items():
        raw = np.ascontiguousarray(arr).tobytes()
        for part, at in enumerate(range(0, max(len(raw), 1), PART_BYTES)):
            rows.append((f"{name}/{key}", part, gen, raw[at:at + PART_BYTES]))
    return rows
