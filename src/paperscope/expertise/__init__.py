"""Expertise: profiles (a person's papers) matched against a collection, authors as profiles,
reviewer and expert suggestions. `Expertise(store, engine)` is the component."""
