"""Search quality against baselines, in one run.

1. Known-item search (query = a paper's real title, target = that paper, titles hidden from the
   index as in a title-less list): MRR@10, Recall@1/@10 for lexical, semantic, hybrid (shipped
   fusion), plain RRF of the same two lists, and an arxiv-sanity-lite-style substring scorer.
   Reported on ICML 2024 and the PMLR corpora; fusion and BM25 were tuned on ICLR 2020 + NIPS
   (search_tune.py), shown here for reference only.
2. kNN label accuracy (k=10, cosine, leave-one-out, multi-label keywords: see knn_accuracy) on
   ICLR 2020 / 2017 / 2018 keywords for
   TF-IDF, the embedding, BM25 term vectors, and the mix shipped for `related`
   (the mix weight was chosen on ICLR 2018; 2017 and 2020 are held out).

    .venv/bin/python benchmarks/search_quality.py   -> benchmarks/results/search_quality.json
"""
from __future__ import annotations

import collections
import sys
import time

import numpy as np

import _search_data as data
import _search_eval as ev

KNOWN_ITEM = ("icml2024", "uai2024", "colt2024", "icml2016", "iclr2020", "nips")
TUNING = {"iclr2020", "nips"}
KNN = ("iclr2018", "iclr2017", "iclr2020")
MIX_TUNED_ON = "iclr2018"
K = 10


def known_item() -> dict:
    from paperscope.search.fusion import DEFAULT, FusionParams

    out = {}
    for name in KNOWN_ITEM:
        run = ev.collect(name, data.dedupe(data.CORPUS[name]()))
        row = {"papers": len(run.abstracts), "used_for_tuning": name in TUNING,
               "substring (arxiv-sanity-lite style)": ev.substring_baseline(run),
               "lexical (BM25F)": ev.single(run, "lexical"),
               "semantic (MiniLM-L6)": ev.single(run, "semantic"),
               "plain RRF k=60": ev.evaluate(run, FusionParams("rrf", 1.0, 1.0, 60)),
               "hybrid (shipped)": ev.evaluate(run, DEFAULT)}
        out[name] = row
        print(f"\n{name} ({row['papers']} papers{', TUNING corpus' if name in TUNING else ''})")
        print(f"  {'method':38s} {'MRR@10':>7s} {'R@1':>7s} {'R@10':>7s}")
        for method, m in row.items():
            if isinstance(m, dict):
                print(f"  {method:38s} {m['mrr@10']:7.4f} {m['recall@1']:7.4f} {m['recall@10']:7.4f}")
    return out


def norm_keyword(k: str) -> str:
    k = " ".join(k.lower().replace("-", " ").split())
    words = [w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in k.split()]
    return " ".join(words)


def labels_for(records: list[dict]) -> tuple[list[set[str]], list[str]]:
    """Each paper's class keywords. Classes are keywords carried by at least 10 papers and by
    at most 15 % of them (drops 'deep learning'-like ones); papers with none are left out."""
    kws = [{norm_keyword(k) for k in r["keywords"] if k.strip()} for r in records]
    count = collections.Counter(k for ks in kws for k in ks)
    n = len(records)
    classes = {k for k, c in count.items() if c >= 10 and c <= 0.15 * n}
    return [ks & classes for ks in kws], sorted(classes)


def knn_accuracy(sim: np.ndarray, labels: list[set[str]]) -> float:
    """Leave-one-out kNN: the 10 most similar other papers vote for each of their classes; the
    top class (ties: larger summed similarity) is a hit when it is one of the paper's own."""
    sim = sim.copy()
    np.fill_diagonal(sim, -np.inf)
    correct = 0
    for i in range(len(labels)):
        nn = np.argpartition(-sim[i], K)[:K]
        counts: collections.Counter = collections.Counter()
        votes: dict[str, float] = collections.defaultdict(float)
        for j in nn:
            for lab in labels[j]:
                counts[lab] += 1
                votes[lab] += float(sim[i, j])
        pred = max(counts, key=lambda lab: (counts[lab], votes[lab])) if counts else None
        correct += pred in labels[i]
    return round(correct / len(labels), 4)


def knn() -> dict:
    from sklearn.feature_extraction.text import TfidfVectorizer

    from paperscope.search import hybrid, related, semantic

    out = {}
    for name in KNN:
        records = data.dedupe(data.CORPUS[name]())
        labels, classes = labels_for(records)
        lib = data.library(name, records, titles=True, keywords=False)  # keywords are the labels
        found = [data.paper_id(lib, r) for r in records]  # None: rejected by the ingester
        keep = [i for i, lab in enumerate(labels) if lab and found[i]]
        recs = [records[i] for i in keep]
        labs = [labels[i] for i in keep]
        ids = [found[i] for i in keep]
        texts = [semantic.paper_text(r["title"], r["abstract"]) for r in recs]
        tfidf = TfidfVectorizer(sublinear_tf=True, stop_words="english").fit_transform(texts)
        sims = {"TF-IDF (sklearn, sublinear)": (tfidf @ tfidf.T).toarray()}
        vids, matrix = semantic.vectors(lib)
        row_of = {pid: i for i, pid in enumerate(vids)}
        emb = matrix[[row_of[p] for p in ids]]
        sims["embedding (MiniLM-L6)"] = emb @ emb.T
        index = hybrid.lexical_index(lib)
        pos_of = {int(r): i for i, r in enumerate(index.rowids)}
        rowid_of = dict(lib.store.conn.execute("SELECT id, rowid FROM papers"))
        pos = [pos_of[rowid_of[p]] for p in ids]
        lex = np.stack([related.lexical_cosines(lib, index, t)[pos] for t in texts])
        sims["BM25 term vectors"] = lex  # row i: paper i as the query, as related() scores it
        res = {"papers": len(recs), "classes": len(classes)}
        for method, s in sims.items():
            res[method] = knn_accuracy(s, labs)
        mixes = {}
        for w in (0.5, 0.6, 0.7, 0.8, 0.9):
            mixes[w] = knn_accuracy(w * sims["embedding (MiniLM-L6)"] + (1 - w) * sims["BM25 term vectors"], labs)
        res["mix embedding/BM25 by weight"] = mixes
        res[f"related (shipped mix w={related.SEMANTIC_WEIGHT})"] = mixes.get(related.SEMANTIC_WEIGHT) or knn_accuracy(
            related.SEMANTIC_WEIGHT * sims["embedding (MiniLM-L6)"] + (1 - related.SEMANTIC_WEIGHT) * sims["BM25 term vectors"], labs)
        out[name] = res
        lib.close()
        print(f"\n{name}: {res['papers']} labelled papers, {res['classes']} classes"
              f"{' (mix weight chosen here)' if name == MIX_TUNED_ON else ''}")
        for method, v in res.items():
            if isinstance(v, float):
                print(f"  {method:40s} {100 * v:5.1f} %")
        print("  mix by weight: " + ", ".join(f"{w}: {100 * v:.1f}" for w, v in mixes.items()))
    return out


def main() -> int:
    if not data.available():
        print("corpora not found: skipped")
        return 0
    started = time.time()
    result = {"known_item": known_item(), "knn_label_accuracy": knn(), "k": K,
              "mix_tuned_on": MIX_TUNED_ON, "machine": data.machine(),
              "seconds": round(time.time() - started, 1)}
    print("\nwritten", data.write_result("search_quality", result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
