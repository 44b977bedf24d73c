"""The terminal's apps style a widget once, as it is mounted: not at each change of its classes before."""

from __future__ import annotations

import pytest
from textual.app import App
from textual.widgets import Button

from atout.tui.app import AtoutApp
from atout.tui.game import Game
from atout.tui.learn import LearnApp
from atout.tui.replay import ReplayApp
from atout.tui.styling import StyledWhenMounted

from .helpers import SIZE, settle


async def test_a_button_made_is_styled_only_once_mounted_and_then_as_its_classes_say(monkeypatch, tmp_path) -> None:
    styled: list[object] = []
    original = App.update_styles

    def counted(self: App, node=None, animate: bool = True) -> None:
        styled.append(node)
        original(self, node, animate)

    game = Game(players=4, level="random", deals=1, seed="styled", save_dir=tmp_path)
    app = AtoutApp(game, delay=0, save_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        monkeypatch.setattr(App, "update_styles", counted)
        button = Button("Garde", variant="primary", compact=True)  # its variant's and its look's classes set
        made = [node for node in styled if node is button]
        await app.screen.mount(button)
        await pilot.pause()
        assert made == [], f"styled {len(made)} times before it was mounted"
        assert button.has_class("-primary") and button.has_class("-textual-compact")
        assert button.size.height == 1  # styled as its classes say once mounted: compact, no border
        button.add_class("-chosen")  # once mounted, a change of class styles it again, as Textual does
        assert any(node is button for node in styled)


@pytest.mark.parametrize("app", [AtoutApp, LearnApp, ReplayApp])
def test_every_app_of_the_terminal_styles_its_widgets_once_mounted(app) -> None:
    assert issubclass(app, StyledWhenMounted)
