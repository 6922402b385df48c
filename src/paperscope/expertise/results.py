"""What expertise questions return: papers ranked for a profile (a `Hit`) and authors ranked
for a paper or a topic, each with its evidence."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..model import Hit


@dataclass
class MatchHit(Hit):
    WHY_KEY: ClassVar[str] = "evidence"  # profile papers driving the score, shared words


@dataclass
class AuthorSuggestion:
    name: str
    score: float
    rank: int
    papers_count: int  # the author's papers the score was taken over
    evidence: list[dict[str, Any]] = field(default_factory=list)  # their nearest papers
    also: list[str] = field(default_factory=list)  # co-authors with exactly the same papers here

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "name": self.name, "score": self.score,
                "papers": self.papers_count, "evidence": self.evidence, "also": self.also}
