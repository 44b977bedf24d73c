"""No word reaches the terminal's screen unmarked (issue 36): a scan of the terminal game's code (its screens,
``atout replay``, ``atout play`` and ``--robots-only``) for string literals with letters that go to the screen
or the printed page without ``_()``, ``N_()`` or ``n_()``, so they would stay English in French and Spanish.

Pure AST, no Textual run: a literal counts as shown when it is (part of) an argument of what draws or prints
(``Static``, ``Button``, ``Label``, ``Text``, ``print``, ``.update``, ``.write``, ``.append``, ``notify``, a
table's rows and headers, a key's label), a ``TITLE``, or what a function returns; a name passed there is
followed to what the function assigned it. Only the literal parts of an f-string count, so ``f"{a}/{b}"``
is no word."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

SOURCES = Path(__file__).resolve().parents[2] / "src" / "atout"
FILES = [
    *sorted(p for p in (SOURCES / "tui").rglob("*.py") if "words" not in p.relative_to(SOURCES).parts),
    SOURCES / "cli" / "play.py",
    SOURCES / "cli" / "robots_game.py",
    SOURCES / "cli" / "learn.py",
]
MARKS = {"_", "N_", "n_"}
LETTERS = re.compile(r"[^\W\d_]{2,}")
"""A word: two letters or more together (a card's letter, ``×k``, ``U`` in a formula are no words)."""

NOT_WORDS = {
    "atout play: ",
    "atout replay: ",
    "atout learn: ",  # the command's name before its error, as every command's errors begin
    "Atout",  # the game's name
    ": --lang: ",  # the option's name
    "atout play --resume",
    "atout play --resume ",  # a command to type, the same in every language
    "heuristic",
    "random",
    "club",  # robot levels' names (a level is shown through level_word)
    "atout",
    "records",
    ".json",
    "game.json",  # the save folder's files
    "Ex",  # the Excuse's corner letters on its tile
}
"""Literals with letters that are not words of a language: a command, a name, a card's corner."""
STYLE = re.compile(
    r"(?:(?:bold|dim|italic|reverse|underline|not|on|red|green|yellow|blue|magenta|cyan|white|"
    r"black|grey\d*|bright_\w+|dark_\w+|#[0-9a-f]{6}|\$\w+)\s*)+"
)
"""A Rich style ("bold yellow"), never shown as text."""

TEXT_ARGS: dict[str, tuple[int, ...] | None] = {
    # what draws or prints: the positions of its text arguments (None: all of them)
    "Static": (0,),
    "Label": (0,),
    "Button": (0,),
    "Text": (0,),
    "print": None,
    "notify": (0,),
    "update": (0,),
    "write": (0,),
    "append": (0,),
    "add_row": None,
    "add_column": (0,),
    "Binding": (2,),
    "assemble": None,
    "from_markup": (0,),
    "Panel": (0,),
    "Rule": (0,),
}
TEXT_KEYWORDS = {
    "label",
    "description",
    "title",
    "message",
    "content",
    "renderable",
    "text",
    "tooltip",
    "placeholder",
    "sub_title",
    "severity_text",
}
SHOWN_CLASS_FIELDS = {"TITLE", "SUB_TITLE"}


def _callee(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


class Scan:
    """One file's unmarked words: (line, literal text)."""

    def __init__(self, tree: ast.Module) -> None:
        self.found: list[tuple[int, str]] = []
        self.assigned: dict[str, list[ast.expr]] = {}
        self.following: set[str] = set()
        self.tree = tree

    def run(self) -> list[tuple[int, str]]:
        self.scope(self.tree)
        return self.found

    def scope(self, node: ast.AST) -> None:
        """A module, class or function: its own assignments resolve the names it shows."""
        saved = self.assigned
        self.assigned = {}
        for child in self.own_nodes(node):
            if isinstance(child, ast.Assign | ast.AugAssign | ast.AnnAssign) and child.value is not None:
                targets = child.targets if isinstance(child, ast.Assign) else [child.target]
                for target in targets:
                    for name in ast.walk(target):
                        if isinstance(name, ast.Name):
                            self.assigned.setdefault(name.id, []).append(child.value)
        for child in self.own_nodes(node):
            self.visit(child, node)
        self.assigned = saved

    @staticmethod
    def own_nodes(node: ast.AST) -> Iterator[ast.AST]:
        """The nodes of ``node`` outside the functions and classes defined in it."""
        todo = list(ast.iter_child_nodes(node))
        while todo:
            child = todo.pop()
            yield child
            if not isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
                todo.extend(ast.iter_child_nodes(child))

    def visit(self, node: ast.AST, scope: ast.AST) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            self.scope(node)
        elif isinstance(node, ast.Call) and (name := _callee(node)) in TEXT_ARGS and name not in MARKS:
            positions = TEXT_ARGS[name]
            for i, arg in enumerate(node.args):
                if positions is None or i in positions:
                    self.shown(arg)
            for keyword in node.keywords:
                if keyword.arg in TEXT_KEYWORDS:
                    self.shown(keyword.value)
        elif self.returned(node, scope) or self.class_title(node, scope):
            assert isinstance(node, ast.Return | ast.Assign) and node.value is not None
            self.shown(node.value)

    @staticmethod
    def returned(node: ast.AST, scope: ast.AST) -> bool:
        """What a function returns (a seat's label, a title) may be shown."""
        return (
            isinstance(node, ast.Return)
            and node.value is not None
            and isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef)
        )

    @staticmethod
    def class_title(node: ast.AST, scope: ast.AST) -> bool:
        return (
            isinstance(node, ast.Assign)
            and isinstance(scope, ast.ClassDef)
            and any(isinstance(t, ast.Name) and t.id in SHOWN_CLASS_FIELDS for t in node.targets)
        )

    def shown(self, node: ast.expr) -> None:
        """``node`` reaches the screen: every unmarked literal word it is made of."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            self.word(node, node.value)
        elif isinstance(node, ast.JoinedStr):
            for part in node.values:
                if isinstance(part, ast.Constant):
                    self.word(node, str(part.value))
                elif isinstance(part, ast.FormattedValue):
                    self.shown(part.value)
        elif isinstance(node, ast.BinOp):
            self.shown(node.left)
            self.shown(node.right)
        elif isinstance(node, ast.IfExp):
            self.shown(node.body)
            self.shown(node.orelse)
        elif isinstance(node, ast.BoolOp):
            for value in node.values:
                self.shown(value)
        elif isinstance(node, ast.List | ast.Tuple | ast.Set):
            for element in node.elts:
                self.shown(element)
        elif isinstance(node, ast.ListComp | ast.GeneratorExp | ast.SetComp):
            self.shown(node.elt)
        elif isinstance(node, ast.Dict):
            for value in node.values:
                self.shown(value)
        elif isinstance(node, ast.Subscript | ast.Starred):
            self.shown(node.value)
        elif isinstance(node, ast.Call):
            name = _callee(node)
            if name in MARKS:
                return
            if name in ("join", "format", "str", "lstrip", "rstrip", "strip", "lower", "upper", "capitalize"):
                if isinstance(node.func, ast.Attribute):
                    self.shown(node.func.value)
                for arg in node.args:
                    self.shown(arg)
            elif name in TEXT_ARGS:  # Text("…") inside an update(…): its own visit reports it
                return
        elif isinstance(node, ast.Name) and node.id not in self.following:
            self.following.add(node.id)
            for value in self.assigned.get(node.id, []):
                self.shown(value)
            self.following.discard(node.id)

    def word(self, node: ast.expr, text: str) -> None:
        if LETTERS.search(text) and text not in NOT_WORDS and not STYLE.fullmatch(text.strip()):
            self.found.append((node.lineno, text))


def unmarked(source: str) -> list[tuple[int, str]]:
    return sorted(set(Scan(ast.parse(source)).run()))


def test_no_word_reaches_the_screen_unmarked():
    found = [
        f"{path.relative_to(SOURCES)}:{line}: {text!r}"
        for path in FILES
        for line, text in unmarked(path.read_text(encoding="utf-8"))
    ]
    assert not found, f"{len(found)} words shown without _(), N_() or n_():\n" + "\n".join(found)


def test_the_scan_finds_words_where_they_hide():
    source = """
class Viewer:
    TITLE = "Atout replay"

    def show(self, deal, name):
        title = f"{name}  Trick {deal.n}"
        role = " (taker)" if deal.taker else ""
        self.query_one("#title", Static).update(Text(title + role, style="bold"))
        out.append("Bids: " + (", ".join(bids) if bids else _("none yet")), style="bold yellow")
        print(_("Totals") + "  ".join(f"{s}/{t}" for s, t in pairs), file=sys.stderr)


def seat_label(seat):
    return f"Seat {seat}"
"""
    assert [text for _line, text in unmarked(source)] == ["Atout replay", "  Trick ", " (taker)", "Bids: ", "Seat "]


def test_no_code_hides_the_translation_behind_another_underscore():
    """``states, _ = …`` in a function that says ``_("…")`` makes every word of it fail at run time."""
    bound = []
    for path in FILES:
        for function in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            in_comprehension = {
                id(n) for c in ast.walk(function) if isinstance(c, ast.comprehension) for n in ast.walk(c.target)
            }  # a comprehension's _ stays in it
            names = [
                n
                for n in ast.walk(function)
                if isinstance(n, ast.Name) and n.id == "_" and id(n) not in in_comprehension
            ]
            if any(isinstance(n.ctx, ast.Store) for n in names) and any(isinstance(n.ctx, ast.Load) for n in names):
                bound.append(f"{path.relative_to(SOURCES)}:{function.lineno} {function.name}")
    assert not bound, f"_ bound to something else than the translation: {bound}"
