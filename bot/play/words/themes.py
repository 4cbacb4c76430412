"""What every solution of a hand needs (solver.themes, docs/themes.md), said in one line under
its solutions: "🧩 What every solution needs: a fraction on the way · division last". Each theme
its own catalog line (`theme_<code>`); a factor pair names the pairs the last step can be."""

from __future__ import annotations

from bot.text.i18n import Texts
from solver.themes import THEMES, Themes

KEYS = {code: f"theme_{code}" for code in THEMES}  # each theme's words in the catalogs


def themes_text(texts: Texts, found: Themes | None) -> str:
    """The line, or "" for a hand that needs nothing in particular (or none worked out)."""
    if found is None or not found.codes:
        return ""
    named = [theme_text(texts, found, code) for code in found.codes]
    return texts("solve_themes", themes=" · ".join(named))


def theme_text(texts: Texts, found: Themes, code: str) -> str:
    """One theme's words: the target beyond which a step goes, the pairs a product may be."""
    if code == "factor_pair":
        return texts(KEYS[code], pairs=[f"{a}×{b}" for a, b in found.factor_pairs])
    return texts(KEYS[code], target=found.target)


def theme_name(texts: Texts, code: str, targets: set[int]) -> str:
    """A theme's words apart from one hand (a player's page, a practice deal): a product last
    without its pairs (they differ from hand to hand), a step past the target named where every
    round of it had one target."""
    if code == "factor_pair":
        return texts("webapp_theme_factor_pair")
    if code == "beyond" and len(targets) != 1:
        return texts("webapp_theme_beyond")
    return texts(KEYS[code], target=next(iter(targets), 0))
