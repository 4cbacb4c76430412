"""The inline buttons under the bot's messages, and the short strings their presses carry.

A button's callback_data (Telegram allows 1..64 bytes) says everything a press needs: an action
and a round's id (`h:12` Hint, `r:12` Reveal, `n:12` Play again, `l:12` Same level, `s:12` Show
all solutions, `s:12:2` their third page, in the result's own message, `x:12` Pass), a hand,
target and page of solutions (`p:3,8,3,8:24:1`, under /solve), or a chat's setting and the value
a press sets it to (`g:-100123:count:5`, under /settings). So nothing about a keyboard is kept in
memory, and a press on a week-old message still reads. Any client can send any data, so a press
is read back as strictly as a typed command; what does not read is None.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from bot.play import outcomes
from bot.play.chats.settings import Panel
from bot.play.ports import PageLink
from bot.telegram.grammar import SolveRequest, parse_solve
from bot.text.i18n import Texts

DATA_LIMIT = 64  # bytes of callback_data, Telegram's limit
HINT, REVEAL, AGAIN, SAME, SOLUTIONS, PAGE, PASS, SETTING = "h", "r", "n", "l", "s", "p", "x", "g"
COACH = "c"
ROUND_ACTIONS = (HINT, REVEAL, AGAIN, SAME, SOLUTIONS, PASS, COACH)
DEAL_ACTIONS = (AGAIN, SAME)  # the after-round buttons that deal: one deal per result message
PREVIOUS, NEXT = "◀", "▶"
LABELS = {HINT: "button_hint", REVEAL: "button_reveal", AGAIN: "button_again",
          SAME: "button_same", SOLUTIONS: "button_solutions", PASS: "button_pass",
          COACH: "button_coach"}
ROUND_DATA = re.compile(r"([hrnlsxc]):([1-9][0-9]{0,17})(?::([0-9]{1,5}))?")
# a value is at most 8 letters, digits or "-" (a language tag: zh-Hant)
SETTING_DATA = re.compile(r"g:(-?[1-9][0-9]{0,18}):([a-z_0-9]{1,24}):([A-Za-z0-9-]{1,8})")
PAGE_DATA = re.compile(r"p:([0-9]{1,7}(?:,[0-9]{1,7}){0,5}):(-?[0-9]{1,10}):([0-9]{1,5})")


@dataclass(frozen=True)
class RoundPress:
    """A press of a round's button: which action, on which round (and which page of its
    solutions, for Show all solutions and the ◀ ▶ under them)."""

    action: str
    round_id: int
    page: int = 0


@dataclass(frozen=True)
class PagePress:
    """A press of ◀ or ▶: the page (from 0) of the solutions of a hand to show."""

    request: SolveRequest
    page: int


@dataclass(frozen=True)
class SettingPress:
    """A press of the /settings panel: the chat it was for, the setting, the value it sets."""

    chat_id: int
    key: str
    value: str


def round_data(action: str, round_id: int, page: int | None = None) -> str:
    return f"{action}:{round_id}" + (f":{page}" if page is not None else "")


def page_data(numbers: tuple[int, ...], target: int, page: int) -> str:
    return f"{PAGE}:{','.join(map(str, numbers))}:{target}:{page}"


def read_press(data: str | None) -> RoundPress | PagePress | SettingPress | None:
    """What a button's data asks for; None for data no button of this bot carries."""
    if not data or len(data.encode()) > DATA_LIMIT:
        return None
    if found := ROUND_DATA.fullmatch(data):
        if found.group(3) is not None and found.group(1) != SOLUTIONS:
            return None
        return RoundPress(found.group(1), int(found.group(2)), int(found.group(3) or 0))
    if found := PAGE_DATA.fullmatch(data):
        request = parse_solve(f"{found.group(1).replace(',', ' ')} = {found.group(2)}")
        return PagePress(request, int(found.group(3))) if request is not None else None
    if found := SETTING_DATA.fullmatch(data):
        return SettingPress(int(found.group(1)), found.group(2), found.group(3))
    return None


def action_of(data: str | None) -> str | None:
    """The action a button's data names (None if it names none)."""
    press = read_press(data)
    if isinstance(press, SettingPress):
        return SETTING
    return press.action if isinstance(press, RoundPress) else PAGE if press else None


# what each button of play's outcomes does, as the data its press carries
CODES = {outcomes.HINT: HINT, outcomes.REVEAL: REVEAL, outcomes.AGAIN: AGAIN,
         outcomes.SAME: SAME, outcomes.SOLUTIONS: SOLUTIONS, outcomes.PASS: PASS,
         outcomes.COACH: COACH}


def _button(texts: Texts, action: str, round_id: int) -> InlineKeyboardButton:
    return InlineKeyboardButton(texts(LABELS[action]), callback_data=round_data(action, round_id))


def deal_keyboard(texts: Texts, round_id: int, actions: tuple[str, ...],
                  mini_app: PageLink | None = None) -> InlineKeyboardMarkup:
    """Under a deal: its buttons (Hint, Reveal) in one row, and its page's below (the Mini App:
    a web_app button in a private chat, where Telegram allows them; a link in a group, the
    bot's Direct Link Mini App with the round in its start parameter)."""
    rows = [[_button(texts, CODES[a], round_id) for a in actions]]
    if mini_app is not None:
        label = texts("button_tap")
        rows.append([InlineKeyboardButton(label, web_app=WebAppInfo(mini_app.url))
                     if mini_app.web_app else InlineKeyboardButton(label, url=mini_app.url)])
    return InlineKeyboardMarkup(rows)


def opening(label: str, link: PageLink | None) -> InlineKeyboardMarkup | None:
    """One button that opens a page of the Mini App (a player's, a group's): web_app in a
    private chat, the Direct Link in a group; None when there is no link."""
    if link is None:
        return None
    return InlineKeyboardMarkup([[InlineKeyboardButton(label, web_app=WebAppInfo(link.url))
                                  if link.web_app else InlineKeyboardButton(label, url=link.url)]])


def result_keyboard(texts: Texts, round_id: int, actions: tuple[str, ...]
                    ) -> InlineKeyboardMarkup | None:
    """Under a round's result: Play again and Same level in a row, Show all solutions and What
    did I miss? below (None: no buttons)."""
    below = (outcomes.SOLUTIONS, outcomes.COACH)
    again = [_button(texts, CODES[a], round_id) for a in actions if a not in below]
    rest = [_button(texts, CODES[a], round_id) for a in below if a in actions]
    rows = [row for row in (again, rest) if row]
    return InlineKeyboardMarkup(rows) if rows else None


def result_pages(round_id: int, page: int, pages: int,
                 rest: InlineKeyboardMarkup | None) -> InlineKeyboardMarkup | None:
    """A result paging through its round's solutions: ◀ ▶ (where they lead somewhere) over
    the result's other buttons."""
    row = []
    if page > 0:
        row.append(InlineKeyboardButton(PREVIOUS, callback_data=round_data(SOLUTIONS, round_id,
                                                                           page - 1)))
    if page < pages - 1:
        row.append(InlineKeyboardButton(NEXT, callback_data=round_data(SOLUTIONS, round_id,
                                                                       page + 1)))
    rows = ([row] if row else []) + [list(r) for r in (rest.inline_keyboard if rest else ())]
    return InlineKeyboardMarkup(rows) if rows else None


def page_keyboard(numbers: tuple[int, ...], target: int, page: int,
                  pages: int) -> InlineKeyboardMarkup | None:
    """◀ ▶ under a page of solutions (only the ones that lead somewhere); None for a single page,
    or when the hand and the last page's number are too long for a button's data."""
    row = []
    if page > 0:
        row.append(InlineKeyboardButton(PREVIOUS, callback_data=page_data(numbers, target,
                                                                          page - 1)))
    if page < pages - 1:
        row.append(InlineKeyboardButton(NEXT, callback_data=page_data(numbers, target, page + 1)))
    if not row or len(page_data(numbers, target, pages - 1).encode()) > DATA_LIMIT:
        return None  # every page's buttons fit, or none has any
    return InlineKeyboardMarkup([row])


def settings_keyboard(panel: Panel) -> InlineKeyboardMarkup:
    """The /settings panel's buttons, each setting one setting to the value it names."""
    return InlineKeyboardMarkup([[InlineKeyboardButton(
        choice.label, callback_data=f"{SETTING}:{panel.chat_id}:{choice.key}:{choice.value}")
        for choice in row] for row in panel.rows])


def carries(keyboard: InlineKeyboardMarkup | None, data: str | None) -> bool:
    """Whether the keyboard has a button with this data (else the press was forged)."""
    return keyboard is not None and any(b.callback_data == data
                                        for row in keyboard.inline_keyboard for b in row)


def shows(keyboard: InlineKeyboardMarkup | None, press: RoundPress | PagePress) -> bool:
    """Whether the pressed message has a button for what a page press asks: pages of the same
    hand and target, or of the same round's solutions. Any page of them: a second quick press
    of ▶ names the page the first one left behind. A press the message shows nothing of was
    forged, and must not turn that message (a live deal) into a page."""
    if keyboard is None:
        return False
    for button in (b for row in keyboard.inline_keyboard for b in row):
        shown = read_press(str(button.callback_data)) if button.callback_data else None
        if isinstance(press, PagePress) and isinstance(shown, PagePress):
            if shown.request == press.request:
                return True
        elif isinstance(press, RoundPress) and isinstance(shown, RoundPress) and \
                (shown.action, shown.round_id) == (press.action, press.round_id):
            return True
    return False


def without(keyboard: InlineKeyboardMarkup | None,
            actions: tuple[str, ...]) -> InlineKeyboardMarkup | None:
    """The keyboard less the buttons of these actions (None when nothing is left)."""
    if keyboard is None:
        return None
    rows = [[b for b in row if action_of(str(b.callback_data)) not in actions]
            for row in keyboard.inline_keyboard]
    kept = [row for row in rows if row]
    return InlineKeyboardMarkup(kept) if kept else None
