"""``autograder analyze --html``: the value map and the policy map drawn on the board, the
square-by-square table, each strategy with its game lengths; the same bytes for the same
seed; and the page in a real browser."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest

from autograder.cli import main
from tests.browser import browser_or_skip, distinct_colours, visit

SVG = "{http://www.w3.org/2000/svg}"


def pictures(page: str) -> list[ET.Element]:
    return [ET.fromstring(m) for m in re.findall(r"<svg\b.*?</svg>", page, re.S)]


def squares(svg: ET.Element) -> dict[int, ET.Element]:
    groups = [g for g in svg.iter(f"{SVG}g") if "square" in g.get("class", "").split()]
    numbers = [int(g.get("data-square")) for g in groups]
    assert len(numbers) == len(set(numbers))
    return dict(zip(numbers, groups, strict=True))


def solved(name: str, *settings: str, capsys) -> dict:
    args = ["solve", name, "--json"]
    for setting in settings:
        args += ["--set", setting]
    assert main(args) == 0
    return json.loads(capsys.readouterr().out)


def analyzed(name: str, tmp_path, capsys, *extra: str) -> str:
    page = tmp_path / f"{name}.html"
    assert main(["analyze", name, "--games", "2000", "--html", str(page), *extra]) == 0
    out = capsys.readouterr().out
    assert f"page written to {page}" in out
    return page.read_text()


@pytest.mark.parametrize("objective", ["turns", "discounted"])
def test_aimed_maps_show_the_solved_values_and_aims(objective, tmp_path, capsys):
    """The value map and the policy map against what ``solve --json`` prints."""
    key = solved("aimed", f"objective={objective}", capsys=capsys)
    page = analyzed("aimed", tmp_path, capsys, "--set", f"objective={objective}")
    value_map, policy_map, *bars = pictures(page)
    goal = len(key["values"]) - 1
    values = squares(value_map)
    assert sorted(values) == list(range(goal + 1))
    for square in range(goal):
        said = values[square][0].text
        assert said == f"square {square}: {key['values'][square]:.4f}", said
    actions = squares(policy_map)
    for square in range(goal):
        drawn = [t.text for t in actions[square].iter(f"{SVG}text") if t.get("class") == "action"]
        assert drawn == [f"aim {key['policy'][square]}"], square
    assert "goal" in actions[goal].get("class")
    # A histogram of game lengths per strategy, holding every game that reached the goal.
    rows = re.findall(r'<td class="num">(\d+)</td><td class="num">(\d+)</td></tr>', page)
    assert len(bars) == len(rows) >= 3
    for svg, (games, reached) in zip(bars, rows, strict=True):
        counted = sum(int(g.get("data-count")) for g in svg.iter(f"{SVG}g"))
        assert counted == int(reached) <= int(games) == 2000


def test_the_trap_lane_page_names_its_strategies_and_checks_every_square(tmp_path, capsys):
    page = analyzed("trap-lane", tmp_path, capsys)
    for name in ("always security", "always normal", "always risky", "random die"):
        assert f"<strong>{name}</strong>" in page
    table = page[page.index('class="squares"') : page.index("</table>", page.index('"squares"'))]
    assert [int(n) for n in re.findall(r"<td>square (\d+)</td>", table)] == list(range(1, 15))


def test_classic_has_no_policy_map_and_says_why(tmp_path, capsys):
    page = analyzed("classic", tmp_path, capsys)
    maps = [svg for svg in pictures(page) if svg.get("class") == "board"]
    assert len(maps) == 1
    assert "no choice" in page


def test_the_same_seed_draws_the_same_page(tmp_path, capsys):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    assert analyzed("efron", tmp_path / "a", capsys) == analyzed("efron", tmp_path / "b", capsys)


def test_the_analysis_page_in_a_browser(tmp_path, capsys):
    browser_or_skip()
    key = solved("token-boosted", capsys=capsys)
    analyzed("token-boosted", tmp_path, capsys)
    layers = len(key["values"])
    goal = len(key["values"][0]) - 1
    seen = visit(tmp_path / "token-boosted.html", ["svg.board g.square rect", "svg.bars"])
    assert seen.errors == () and seen.network == ()
    # A value map and a policy map per token count.
    assert seen.laid_out["svg.board g.square rect"] == 2 * layers * (goal + 1)
    assert seen.laid_out["svg.bars"] >= 3
    assert distinct_colours(seen.screenshot) > 20


def test_the_trap_lane_maps_are_on_a_layout_with_traps_and_explain_every_colour_and_letter(
    tmp_path, capsys
):
    page = analyzed("trap-lane", tmp_path, capsys)
    assert "on the analysis layout (restart on 5 and 14, " in page
    maps = [svg for svg in pictures(page) if svg.get("class") == "board"]
    legends = re.findall(r'<div class="legend">(.*?)</div>', page, re.S)
    assert len(maps) == len(legends) == 2  # the value map, then the policy map
    value_map, policy_map = maps
    value_legend, policy_legend = legends
    for legend in legends:
        assert "R: restart" in legend and "P: penalty" in legend and "J: prison" in legend
        assert "S: special" in legend
    # The value map's scale runs from its lowest value to its highest, as the legend says.
    shown = [float(t.text) for t in value_map.iter(f"{SVG}text") if t.get("class") == "value"]
    assert f"{min(shown):.2f}, the lowest" in value_legend
    assert f"{max(shown):.2f}, the highest" in value_legend
    # Each action's colour on the policy map is the legend's for that action.
    swatch = r'background: (#[0-9a-f]{6}); border: [^"]*"></span>([^<]*)</span>'
    keys = {words: fill for fill, words in re.findall(swatch, policy_legend)}
    for square, group in squares(policy_map).items():
        fill = group.find(f"{SVG}rect").get("fill")
        said = [t.text for t in group.iter(f"{SVG}text") if t.get("class") == "action"]
        assert keys[said[0] if said else "the goal"] == fill, square
