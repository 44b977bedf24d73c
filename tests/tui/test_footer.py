"""The footer of the terminal game's screens: drawn again when the keys it shows change, and only then (Textual's
own footer builds its keys anew at each change of focus)."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Button
from textual.widgets._footer import FooterKey

from atout.tui.widgets import Footer
from atout.tui.words import Language, set_language


class Plain(Button):
    pass


class WithKey(Button):
    BINDINGS = [Binding("x", "noop", "Extra", show=True)]

    def action_noop(self) -> None:
        pass


class Keys(App[None]):
    BINDINGS = [Binding("q", "quit", "Quit")]

    def compose(self) -> ComposeResult:
        yield Plain("one", id="one")
        yield Plain("two", id="two")
        yield WithKey("three", id="three")
        yield Footer()


async def test_the_footer_is_drawn_again_only_when_its_keys_change(monkeypatch) -> None:
    drawn: list[int] = []
    original = Footer.recompose

    async def counted(self: Footer) -> None:
        drawn.append(1)
        await original(self)

    monkeypatch.setattr(Footer, "recompose", counted)
    app = Keys()
    async with app.run_test(size=(60, 10)) as pilot:
        await pilot.pause()

        def keys() -> list[str]:
            return sorted(str(key.key) for key in app.screen.query(FooterKey))

        app.query_one("#one").focus()
        await pilot.pause()
        before, first = len(drawn), keys()
        assert "q" in first and "x" not in first
        app.query_one("#two").focus()  # the same keys: nothing drawn again
        await pilot.pause()
        assert len(drawn) == before and keys() == first
        app.query_one("#three").focus()  # one more key shown: drawn again, with it
        await pilot.pause()
        assert len(drawn) == before + 1 and keys() == sorted([*first, "x"])
        app.query_one("#one").focus()
        await pilot.pause()
        assert len(drawn) == before + 2 and keys() == first
        set_language(Language.FR)  # another language: the same keys in other words, drawn again
        try:
            app.query_one("#two").focus()
            await pilot.pause()
            assert len(drawn) == before + 3
        finally:
            set_language(Language.EN)


async def test_a_key_is_styled_once_as_the_footer_draws_it(monkeypatch) -> None:
    """A key is born in the footer's style: Textual's keys are born compact and then bound to their footer's
    (not compact), and the class added then removed as each mounted styled it twice more for nothing."""
    restyled: list[FooterKey] = []
    original = App.update_styles

    def counted(self: App, node=None, animate: bool = True) -> None:
        if isinstance(node, FooterKey):
            restyled.append(node)
        original(self, node, animate)

    monkeypatch.setattr(App, "update_styles", counted)
    app = Keys()
    async with app.run_test(size=(60, 10)) as pilot:
        await pilot.pause()
        app.query_one("#three").focus()  # one more key shown: the footer drawn again
        await pilot.pause()
        keys = list(app.screen.query(FooterKey))
        assert {str(key.key) for key in keys} >= {"q", "x"}
        assert restyled == [], f"{len(restyled)} restyles of {len(keys)} keys"
        await pilot.pause()
        assert all(not key.compact and not key.has_class("-compact") for key in keys)  # as the footer: not compact
