"""Every reply the bot sends, as HTML, in one place; user-provided text is always escaped.

Numbers and expressions are shown in <code>, with × and ÷ for * and /. Replies never exceed
Telegram's 4096-character limit (`clip`).
"""

from __future__ import annotations

from html import escape

from solver import prettify

LIMIT = 4096

TEXTS = {
    "help": (
        "<b>Twenty-Four</b>: make <b>24</b> from four numbers, each used once, with "
        "+ − × ÷ and parentheses.\n\n"
        "/play – deal four numbers (in a group, the first right answer wins)\n"
        "/answer <i>expression</i> (or /a, or reply to the deal) – answer the round\n"
        "/hint – the first step of a solution (fewer points)\n"
        "/reveal – end the round and show the solutions\n"
        "/solve 3 8 3 8 – every distinct solution (up to 6 numbers, <code>= 100</code> for "
        "another target)\n"
        "/top – this chat's leaderboard (/top all: every chat)\n"
        "/stats – your points, wins and streaks\n\n"
        "Example: for <code>3 3 8 8</code> the answer is <code>8÷(3−8÷3)</code>."
    ),
    "deal": "{numbers}\nMake <b>{target}</b>! {seconds} seconds, {points} points ({level}).\n"
            "Answer with /a <i>expression</i>, by replying to this message, or just type it.",
    "still_open": "A round is on: {numbers} → <b>{target}</b>, {seconds} seconds left.",
    "no_round": "No round is on here. Start one with /play.",
    "won": "✅ <b>{name}</b> wins with <code>{expression}</code> in {elapsed} — "
           "+{points} points.",
    "too_late": "{name} was first this time.",
    "wrong_value": "❌ <code>{expression}</code> makes <code>{value}</code>, not {target}.",
    "wrong_numbers": "❌ {reason} The numbers are {numbers}.",
    "division_by_zero": "❌ That divides by zero.",
    "unreadable": "❌ I can't read that: {reason}",
    "hint": "💡 Start with <code>{step}</code>. (Points now {points}.)",
    "reveal": "⏹ {numbers} → {target}: {count_text}\n{solutions}",
    "timeout": "⏰ Time is up! {numbers} → {target}: {count_text}\n{solutions}",
    "count_one": "1 distinct solution",
    "count_many": "{count} distinct solutions",
    "count_shown": "{count} distinct solutions, {shown} shown",
    "solve_usage": "Usage: /solve 3 8 3 8 (1 to 6 whole numbers from 0 to 1,000,000), "
                   "optionally <code>= target</code>, e.g. /solve 1 2 3 4 5 = 100",
    "solve_none": "No solution for {numbers} → {target}.",
    "solve_result": "{numbers} → {target}: {count_text}\n{solutions}{more}",
    "solve_more": "\n…and {count} more",
    "solve_timeout": "That took more than {seconds} seconds, so I stopped. Try fewer numbers.",
    "answer_usage": "Usage: /a <i>expression</i>, e.g. /a (8-4)*(3+3)",
    "top_title": "🏆 <b>{title}</b>",
    "top_chat": "Leaderboard",
    "top_all": "Leaderboard, all chats",
    "top_line": "{rank}. {name} — {points} points, {wins} wins",
    "top_empty": "No scores yet. Start with /play.",
    "stats": "<b>{name}</b>: {points} points, {wins} wins in {played} rounds played.\n"
             "Fastest win: {fastest}. Streak: {streak} (best {best_streak}).",
    "stats_none": "{name}: no rounds played here yet. Start with /play.",
    "error": "Sorry, something went wrong. Please try again.",
    "level_easy": "easy",
    "level_medium": "medium",
    "level_hard": "hard",
}


def text(key: str, **params: object) -> str:
    """The template for `key` filled in; params must already be HTML-safe."""
    return clip(TEXTS[key].format(**params))


def clip(message: str) -> str:
    """Never more than Telegram accepts; cut at a line break when possible."""
    if len(message) <= LIMIT:
        return message
    cut = message.rfind("\n", 0, LIMIT - 2)
    return message[: cut if cut > 0 else LIMIT - 1] + "\n…"


def code(expression: str) -> str:
    """An expression for display: × ÷ − and HTML-escaped (the caller adds <code>)."""
    return escape(prettify(expression))


def numbers_html(numbers: list[int] | tuple[int, ...]) -> str:
    return " ".join(f"<code>{n}</code>" for n in numbers)


def name_html(name: str) -> str:
    return escape(name or "someone")


def seconds_text(seconds: float) -> str:
    return f"{seconds:.1f} s" if seconds < 10 else f"{round(seconds)} s"


def count_text(count: int, shown: int) -> str:
    if count == 1:
        return text("count_one")
    if shown < count:
        return text("count_shown", count=count, shown=shown)
    return text("count_many", count=count)


def solutions_html(solutions: list[str], target: int) -> str:
    return "\n".join(f"<code>{code(s)}</code> = {target}" for s in solutions)
