"""Who a connection speaks for: common ground of the site, which names its connections' people, and of the
rooms, which seat them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Player:
    id: str
    name: str
    registered: bool = False
    robot_of: str | None = None  # a robot account's owner (its name): a person's program, playing with a token
