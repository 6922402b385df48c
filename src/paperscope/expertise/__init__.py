"""Expertise: profiles (a person's papers) matched against a collection, authors as profiles,
reviewer and expert suggestions. `Expertise(store, engine)` is the component.

    service.py   Expertise: match, reviewers, experts and the state they keep
    scope.py     per-scope term-pair vectors and hubness, term vectors of library papers
    scoring.py   similarity recipes, centring, aggregation over a profile's papers
    profile.py   profiles from papers, tags, ids or pasted text
    authors.py   the author index (papers per author, names resolved)
    names.py     author-name keys and display names
    results.py   MatchHit and AuthorSuggestion
"""
