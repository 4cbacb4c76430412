"""The words a level is asked by, in a command's arguments (the games that deal by level, the
tournaments): English and Chinese."""

from __future__ import annotations

LEVEL_WORDS = {"easy": "easy", "medium": "medium", "hard": "hard", "adaptive": "adaptive",
               "简单": "easy", "容易": "easy", "中等": "medium", "困难": "hard", "难": "hard",
               "自适应": "adaptive"}
