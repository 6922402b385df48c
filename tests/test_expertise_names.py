"""Author names: folding, keys, initials merged only when unambiguous; the scoring aggregates."""
from __future__ import annotations

import numpy as np

from paperscope.expertise.names import fold, name_key, resolve
from paperscope.expertise.scoring import Recipe, grouped_scores, profile_scores


def test_accents_order_and_punctuation_fold_to_one_key():
    keys = {name_key(n) for n in ["José Miguel Hernández-Lobato", "Hernandez-Lobato, Jose Miguel",
                                  "JOSÉ MIGUEL HERNÁNDEZ LOBATO"]}
    assert keys == {"jose miguel hernandez lobato"}
    assert fold("Łukasz Kaiser") == "lukasz kaiser"


def test_middle_initials_and_suffixes_are_dropped():
    assert name_key("Michael I. Jordan") == name_key("Michael Jordan")
    assert name_key("Smith, Jr., John") == name_key("John Smith Jr.") == "john smith"


def test_initials_merge_only_into_a_single_full_name():
    merged = resolve(["j smith", "john smith", "a lee", "anna lee", "alex lee", "q zhang"])
    assert merged["j smith"] == "john smith"
    assert merged["a lee"] == "a lee"  # Anna or Alex: kept apart
    assert merged["q zhang"] == "q zhang"  # nobody to merge into


def test_empty_and_non_latin_names():
    assert name_key("   ") == ""
    assert name_key("王伟") == "王伟"


def test_grouped_topk_mean_equals_brute_force():
    rng = np.random.default_rng(1)
    owner = rng.integers(0, 7, 60)
    values = rng.normal(size=60)
    for recipe in (Recipe(k=1), Recipe(k=3, pad=False), Recipe(k=1000, pad=False),
                   Recipe(aggregate="softmax", temperature=0.1)):
        got = grouped_scores(values, owner, 8, recipe)
        assert got[7] == -np.inf  # no papers
        for a in range(7):
            v = np.sort(values[owner == a])[::-1]
            if recipe.aggregate == "softmax":
                w = np.exp((v - v.max()) / 0.1)
                want = (w * v).sum() / w.sum()
            else:
                want = v[:recipe.k].mean()
            assert abs(got[a] - want) < 1e-9
        sims = np.stack([values[owner == 0][:3], values[owner == 1][:3]])
        col = profile_scores(sims, recipe)
        assert col.shape == (3,)


def test_profile_max_and_mean():
    sims = np.array([[0.1, 0.9], [0.5, 0.2], [0.3, 0.4]], np.float32)
    assert np.allclose(profile_scores(sims, Recipe(k=1)), [0.5, 0.9])
    assert np.allclose(profile_scores(sims, Recipe(k=2)), [0.4, 0.65])
    assert np.allclose(profile_scores(sims, Recipe(k=99)), sims.mean(axis=0))


def test_an_author_with_fewer_papers_than_k_is_padded_with_zeros():
    values = np.array([0.8, 0.5, 0.5, 0.4])
    owner = np.array([0, 1, 1, 1])
    padded = grouped_scores(values, owner, 2, Recipe(k=2))
    assert np.allclose(padded, [0.4, 0.5])  # one paper at 0.8 counts as (0.8 + 0) / 2
    plain = grouped_scores(values, owner, 2, Recipe(k=2, pad=False))
    assert np.allclose(plain, [0.8, 0.5])
