"""The terminal's apps style a widget once it is in the screen, not at each change before."""

from __future__ import annotations

from textual.app import App
from textual.dom import DOMNode


class StyledWhenMounted(App[object]):
    """Textual styles a widget again at each change of its classes, even before it is mounted, and mounting it
    styles it anyway: a button made (its variant's class set, its look's) cost some 5 ms of styles for nothing, a
    twentieth of the terminal's lessons in the tests."""

    def update_styles(self, node: DOMNode, animate: bool = True) -> None:
        if node is self or node.is_attached:
            super().update_styles(node, animate)
