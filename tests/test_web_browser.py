"""The web app in a real browser: Debian's Chromium driven by Playwright (never a
downloaded browser). A person creates a table, plays a whole game of The Resistance
against four bots by clicking, then watches the replay with the bots' beliefs; a game
of Phantom through the generic view. Screenshots go to docs/web/ (checked by a person).

Skipped, with the reason, without the ``web`` extra, Playwright or /usr/bin/chromium.
"""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install '.[web]')")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from web_play import web_settings  # noqa: E402

from spyglass.web.serving import running_server  # noqa: E402

CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists()
                                        else None)
SHOTS = Path(__file__).resolve().parents[1] / "docs" / "web"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

pytestmark = pytest.mark.skipif(CHROMIUM is None,
                                reason="no Chromium found (apt-get install chromium)")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    db = tmp_path_factory.mktemp("web") / "games.sqlite3"
    with running_server(f"sqlite:///{db}", workers=1,
                        settings=web_settings(clock_grace=1)) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


# The gameplay tests open pages with bypass_csp=True: Playwright's wait_for_function
# evaluates strings, which the pages' CSP (script-src 'self') rightly forbids.


# A move a person can make: a generic button, a square on a drawn board, a card in hand.
PLAY = "button.move, .cell.playable, .hcard.pickable"


def shot(page, name: str) -> None:
    """Save a screenshot of the whole page, which must fit the screen's width (no sideways
    scrolling on a phone)."""
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= page.viewport_size["width"], f"{name}: the page is {wide} px wide"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


@pytest.mark.parametrize("width,height", [(1280, 900), (390, 844)])
def test_person_plays_resistance_against_four_bots_then_replay(site, browser, width, height):
    rng = random.Random(7)
    page = browser.new_page(viewport={"width": width, "height": height}, bypass_csp=True)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(site + "/")
    page.wait_for_selector("#seats tr")
    page.fill("#seed", "11")
    bots = ["pandsbot", "mtismcts:iterations=200", "logicalbot", "moismcts:iterations=200"]
    for j, spec in enumerate(bots, start=1):
        page.fill(f"#seats tr:nth-child({j + 1}) .bot", spec)
    page.fill("#seats tr:nth-child(1) .name", "Ada")
    shot(page, f"new-table-{width}")
    page.click("#create")
    page.wait_for_url("**/table/**")
    seen = set()
    for _ in range(200):
        page.wait_for_selector("#propose, #approve, #success, #replaylink", timeout=120_000)
        if page.query_selector("#replaylink"):
            break
        if page.query_selector("#propose"):
            if "propose" not in seen:
                shot(page, f"resistance-propose-{width}")
            size = int(page.inner_text("#actions").split("Click ")[1].split(" ")[0])
            cards = page.query_selector_all(".player.pickable")
            order = [0] + rng.sample(range(1, len(cards)), len(cards) - 1)
            for j in order[:size]:  # by keyboard: the cards are buttons (issue 32)
                page.focus(f'.player.pickable[data-seat="{j}"]')
                page.keyboard.press("Enter")
                assert page.get_attribute(f'.player[data-seat="{j}"]', "aria-pressed") == "true"
            assert page.is_enabled("#propose")
            page.click("#propose")
            seen.add("propose")
        elif page.query_selector("#approve"):
            if "vote" not in seen:
                shot(page, f"resistance-vote-{width}")
            page.click("#approve" if rng.random() < 0.6 else "#reject")
            seen.add("vote")
        else:
            if "mission" not in seen:
                shot(page, f"resistance-mission-{width}")
            page.click("#fail" if page.query_selector("#fail") and rng.random() < 0.7
                       else "#success")
            seen.add("mission")
    assert page.query_selector("#replaylink"), "the game did not finish"
    assert "propose" in seen and "vote" in seen
    assert page.query_selector(".banner, #result")
    shot(page, f"resistance-end-{width}")
    assert page.inner_text("#outcome").startswith(("You won", "You lost"))
    assert not errors, errors  # no script error at the end of the game (issue 32)
    log = page.inner_text("#log")  # names, as the panels use, never "seat 3" (issue 32)
    assert log and not re.search(r"\b[Ss]eat \d", log), log
    page.click("#replaylink")
    page.wait_for_selector("#steptext")
    page.wait_for_function("document.getElementById('steptext').textContent.length > 0")
    for _ in range(12):
        page.click("#next")
    assert "move 12" in page.inner_text("#steptext")
    assert page.query_selector("#beliefs:not([hidden]) svg polyline"), "no belief plot"
    assert page.get_attribute("#ruleslink", "href") == "/rules/resistance"
    shot(page, f"replay-{width}")
    url = page.url
    page.goto(url)  # the shareable link keeps the step
    page.wait_for_function("document.getElementById('steptext').textContent.includes('move 12')")
    page.goto(site + "/games")
    page.wait_for_selector("#list a")
    shot(page, f"games-{width}")
    page.goto(site + "/ratings")
    page.wait_for_selector("#list td")
    shot(page, f"ratings-{width}")
    page.close()


def _phantom_form(site, browser, width: int, height: int):
    """A page (and the script errors it raises) on the new-table form, Phantom chosen."""
    page = browser.new_page(viewport={"width": width, "height": height}, bypass_csp=True)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(site + "/")
    page.wait_for_selector("#seats tr")
    page.select_option("#game", "phantom")
    page.wait_for_function("document.querySelectorAll('#seats tr').length === 2")
    return page, errors


def test_drawn_board_plays_phantom(site, browser):
    page, errors = _phantom_form(site, browser, 1100, 800)
    page.fill("#seats tr:nth-child(2) .bot", "random")
    page.click("#create")
    page.wait_for_url("**/table/**")
    for i in range(40):
        page.wait_for_selector(PLAY + ", #replaylink", timeout=60_000)
        if page.query_selector("#replaylink"):
            break
        if i == 2:
            shot(page, "phantom-board")
        if i == 0:  # turn signals: the tab title, the status, the seat to move
            page.wait_for_function("document.title.startsWith('● Your turn')")
            assert "myturn" in page.get_attribute("#status", "class")
            assert page.query_selector("#seatbar li.actor.me")
        page.locator(PLAY).first.click()
    assert page.query_selector("#replaylink")
    # The end says who won from this seat's side, in words and in the status.
    assert page.inner_text("#outcome") in ("You won.", "You lost: random won.", "A draw.")
    assert page.inner_text("#outcome") in page.inner_text("#status")
    assert not page.title().startswith("●")
    # Rematch: one click, same seats, a new deal, and it is this person's turn again.
    old_url = page.url
    page.click("#rematch")
    page.wait_for_function(f"location.href !== {old_url!r}")
    page.wait_for_selector(PLAY)
    assert "you are me (seat 0)" in page.inner_text("#title")
    assert not errors, errors
    page.close()


@pytest.mark.parametrize("width,height", [(1280, 900), (390, 844)])
def test_person_plays_cheat_against_a_bot(site, browser, width, height):
    rng = random.Random(5)
    page = browser.new_page(viewport={"width": width, "height": height}, bypass_csp=True)
    page.goto(site + "/")
    page.wait_for_selector("#seats tr")
    page.select_option("#game", "cheat")
    page.wait_for_function("document.querySelectorAll('#seats tr').length === 2")
    page.fill("[data-opt=hand_size]", "6")
    page.fill("[data-opt=max_rounds]", "40")
    page.fill("#seed", "9")
    page.fill("#seats tr:nth-child(1) .name", "Ada")
    page.fill("#seats tr:nth-child(2) .bot", "random")
    page.click("#create")
    page.wait_for_url("**/table/**")
    seen = set()
    for _ in range(100):
        page.wait_for_selector("#claim-up, #call, #take, #replaylink", timeout=60_000)
        if page.query_selector("#replaylink"):
            break
        hand = page.query_selector_all(".pcard.pickable")
        if "called" not in seen and page.query_selector("#claims .no, #claims .yes"):
            shot(page, f"cheat-play-{width}")
            seen.add("called")
        if page.query_selector("#call") and (not hand or rng.random() < 0.4):
            page.click("#call")
            seen.add("call")
        elif page.query_selector("#take") and rng.random() < 0.15:
            page.click("#take")
            seen.add("take")
        else:
            assert page.is_disabled("#claim-up")  # nothing chosen yet
            for n, i in enumerate(rng.sample(range(len(hand)), rng.randint(1, min(3, len(hand))))):
                if n == 0:  # by keyboard: a card is a button, Space picks it
                    page.focus(f'.pcard.pickable[data-i="{i}"]')
                    page.keyboard.press(" ")
                else:
                    page.click(f'.pcard.pickable[data-i="{i}"]')
            assert page.query_selector_all(".pcard.selected")
            button = "#claim-up" if rng.random() < 0.5 else "#claim-down"
            assert page.is_enabled(button)
            page.click(button)
            seen.add("claim")
    assert page.query_selector("#replaylink"), "the game did not finish"
    assert page.inner_text("#err") == "", "the server refused a move made by clicking"
    assert {"claim", "call"} <= seen
    assert page.query_selector("#banner")
    shot(page, f"cheat-end-{width}")
    page.close()


def test_an_invalid_invite_link_says_so_and_stops(site, browser):
    import httpx

    t = httpx.post(site + "/api/tables", json={"game": "phantom", "seats": [
        {"kind": "human"}, {"kind": "bot", "bot": "random"}]}).json()
    page = browser.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if "Content Security" in m.text else None)
    page.goto(f"{site}/table/{t['table']['id']}?seat=0&token=not-the-token")
    # Polled from Python: Playwright's wait_for_function evaluates a string, which the
    # CSP forbids (the gameplay tests bypass the CSP for it; this one keeps it).
    for _ in range(100):
        if "This link is not valid" in (page.text_content("#status") or ""):
            break
        page.wait_for_timeout(100)
    page.wait_for_timeout(1500)  # no reconnecting loop replaces the message
    assert "This link is not valid" in page.text_content("#status")
    assert not errors, errors  # the pages run under the CSP without violations
    page.close()


def test_lobby_join_in_one_click_and_watch(site, browser):
    import httpx

    t = httpx.post(site + "/api/tables", json={"game": "phantom", "seats": [
        {"kind": "human", "open": True}, {"kind": "bot", "bot": "random"}]}).json()
    tid = t["table"]["id"]
    page = browser.new_page(viewport={"width": 1100, "height": 800}, bypass_csp=True)
    page.goto(site + "/lobby")
    page.wait_for_selector(f'button.join[data-table="{tid}"]')
    page.fill("#name", "Zoe")
    shot(page, "lobby")
    page.click(f'button.join[data-table="{tid}"]')
    page.wait_for_url("**/table/**")
    page.wait_for_selector(PLAY)
    assert "you are Zoe" in page.inner_text("#title")
    # A spectator, from the lobby (on a phone's width).
    watcher = browser.new_page(viewport={"width": 390, "height": 844}, bypass_csp=True)
    watcher.goto(site + "/lobby")
    watcher.wait_for_selector("a.watch")
    watcher.click(f'a.watch[href="/table/{tid}?watch=1"]')
    watcher.wait_for_function("document.getElementById('title').textContent.includes('watching')")
    assert not watcher.query_selector(PLAY)  # nothing to play
    # Chat, by keyboard (Enter sends); shown as text everywhere, never as HTML.
    hostile = "<img src=x id=pwned> good luck"
    page.fill("#chatinput", hostile)
    page.press("#chatinput", "Enter")
    watcher.wait_for_function(
        "document.getElementById('chatlog').textContent.includes('good luck')")
    assert hostile in watcher.inner_text("#chatlog") and not watcher.query_selector("#pwned")
    assert hostile in page.inner_text("#chatlog") and not page.query_selector("#pwned")
    for _ in range(40):
        page.wait_for_selector(PLAY + ", #replaylink", timeout=60_000)
        if page.query_selector("#replaylink"):
            break
        page.locator(PLAY).first.click()  # by selector: a re-render may replace it
    watcher.wait_for_selector("#outcome", timeout=60_000)
    assert watcher.inner_text("#outcome").startswith(("Won by", "A draw"))
    shot(watcher, "watching-end-phone")
    watcher.close()
    page.close()


@pytest.mark.parametrize("width,height", [(1280, 900), (390, 844)])
def test_rules_pages_and_help_on_the_new_table_page(site, browser, width, height):
    """Item 8: the new-table page says what each option and the chosen bot are, and links
    the game's rules page, which the table page links too."""
    page = browser.new_page(viewport={"width": width, "height": height}, bypass_csp=True)
    page.goto(site + "/")
    page.wait_for_selector("#seats tr")
    page.select_option("#game", "resistance")
    opt = page.locator("label.opt").first
    assert opt.inner_text().startswith("fifth rejection")
    assert "a fifth rejected proposal wins for the spies" in opt.inner_text()
    bot = page.locator("#seats tr input.bot").nth(1)
    bot.fill("pandsbot")
    help1 = page.locator("#seats tr .bothelp").nth(1)
    assert "Suspicion of players and of pairs" in help1.inner_text()
    bot.fill("nosuchbot:x=1")
    assert help1.inner_text() == "no bot named nosuchbot for this game"
    bot.fill("pandsbot")
    shot(page, f"new-table-help-{width}")
    page.click("#ruleslink")
    page.wait_for_url("**/rules/resistance")
    page.wait_for_selector("#text h2")
    headings = page.locator("#text h2").all_inner_texts()
    assert headings[0] == "A mission" and headings[-1] == "Sources"
    assert "Taylor 2014, §2.1" in page.inner_text("#text")
    assert "fifth rejection (default spies_win)" in page.inner_text("#options")
    assert "pandsbot" in page.inner_text("#bots")
    assert page.title() == "The Resistance rules — Spyglass"
    shot(page, f"rules-resistance-{width}")
    page.click("a#play")  # back to a new table of this game
    page.wait_for_selector("#seats tr")
    assert page.eval_on_selector("#game", "e => e.value") == "resistance"
    # The table page links its game's rules.
    page.select_option("#game", "hearts")
    page.fill("#options input[data-opt=target]", "0")
    for j in (1, 2, 3):
        page.locator("#seats tr input.bot").nth(j).fill("random")
    page.click("#create")
    page.wait_for_url("**/table/**")
    page.wait_for_selector(".hcard")
    link = page.locator("#ruleslink")
    assert link.inner_text() == "Rules of Hearts" and link.get_attribute("href") == "/rules/hearts"
    # Bots are named by their specs; what each is, once per bot, beside the seats.
    assert page.inner_text("#botsabout") == "random: uniformly random legal moves"
    # The log names players as the panels do, not by Hearts's North/East/South/West.
    for _ in range(8):
        page.wait_for_selector(".hcard.pickable", timeout=30_000)
        page.locator(".hcard.pickable").first.click()
    log = page.inner_text("#log")
    assert "random#2 played" in log or "random#2 passed" in log, log
    assert not re.search(r"\b(North|East|South|West)\b", log), log
    page.goto(site + "/rules")
    page.wait_for_selector(".gamelist a")
    assert len(page.locator(".gamelist a").all()) == len(
        page.evaluate("fetch('/api/games_info').then(r => r.json()).then(d => d.games)"))
    page.goto(site + "/rules/hearts")
    page.wait_for_selector("#text h2")
    shot(page, f"rules-hearts-{width}")
    page.close()


def test_waiting_page_says_who_has_joined_and_starts_now(site, browser):
    """The rough edges of issue 32: the waiting page names who has not opened their link,
    keeps the creator's invite links with copy buttons, and has "Start now"."""
    page, errors = _phantom_form(site, browser, 390, 844)
    page.locator("#seats tr .name").nth(0).fill("Ada")
    page.locator("#seats tr select.kind").nth(1).select_option("human")
    page.locator("#seats tr .name").nth(1).fill("Bob")
    page.click("#create")
    page.wait_for_selector("#links a.invite >> nth=1")
    ada = page.locator("#links a.invite").first.get_attribute("href")
    page.goto(site + ada)
    page.wait_for_selector("#startnow")
    assert page.inner_text("#status") == "Waiting for Bob to open their invite link…"
    assert "not here yet" in page.inner_text('#seatbar li[data-seat="1"]')
    assert "not here yet" not in page.inner_text('#seatbar li[data-seat="0"]')
    links = page.locator("#waitbody input.invite")
    assert links.count() == 2 and page.locator("#waitbody button.copy").count() == 2
    assert "seat=1" in links.nth(1).input_value()
    shot(page, "waiting-390")
    if AXE.exists():  # the waiting panel is on no other page axe-core checks
        assert not axe_problems(page)
    page.click("#startnow")
    page.wait_for_selector(PLAY)  # seat 0 moves first
    assert page.inner_text("#status") == "Your turn."
    assert not errors, errors
    page.close()


def test_clock_runs_out_and_a_bot_takes_the_seat(site, browser):
    page = browser.new_page(viewport={"width": 390, "height": 844}, bypass_csp=True)
    page.goto(site + "/")
    page.wait_for_selector("#seats tr")
    page.select_option("#game", "phantom")
    page.wait_for_function("document.querySelectorAll('#seats tr').length === 2")
    page.fill("#seats tr:nth-child(2) .bot", "random")
    page.fill("#clock", "5")
    page.click("#create")
    page.wait_for_url("**/table/**")
    page.wait_for_selector(PLAY)
    page.wait_for_function("document.getElementById('clock').textContent.includes('you have')")
    shot(page, "clock-phone")
    # Nobody moves: after 5 s and the grace the bot plays the seat, the notes say so.
    page.wait_for_selector("#replaylink", timeout=60_000)
    assert "ran out of time" in page.inner_text("#notelist")
    assert "will not be rated" in page.inner_text("#notelist")
    page.close()


@pytest.mark.parametrize("width,height", [(1280, 900), (390, 844)])
def test_hearts_drawn_as_cards_played_by_keyboard(site, browser, width, height):
    """A whole deal of Hearts through its drawn view, by keyboard only: Tab to a card,
    Enter plays it (at a desktop's and at a phone's width)."""
    page = browser.new_page(viewport={"width": width, "height": height}, bypass_csp=True)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(site + "/")
    page.wait_for_selector("#seats tr")
    page.select_option("#game", "hearts")
    page.wait_for_function("document.querySelectorAll('#seats tr').length === 4")
    page.fill("[data-opt=target]", "0")  # one deal
    for j in (2, 3, 4):
        page.fill(f"#seats tr:nth-child({j}) .bot", "random")
    page.click("#create")
    page.wait_for_url("**/table/**")
    shots = 0
    for _ in range(40):
        page.wait_for_selector(".hcard.pickable, #replaylink", timeout=60_000)
        if page.query_selector("#replaylink"):
            break
        if shots < 2 and (shots == 0 or page.query_selector("svg.trick .svgcard")):
            shot(page, f"hearts-{'pass' if shots == 0 else 'trick'}-{width}")
            shots += 1
        first = page.locator(".hcard.pickable").first
        assert first.get_attribute("aria-label")
        first.focus()
        page.keyboard.press("Enter")
        page.wait_for_function("!document.title.startsWith('● Your turn') || "
                               "!document.querySelector('.hcard.pickable:focus')")
    assert page.query_selector("#replaylink"), "the deal did not finish"
    assert page.inner_text("#outcome")
    assert not errors, errors
    shot(page, f"hearts-end-{width}")
    page.close()


AXE = (Path(__file__).resolve().parents[1] / "build" / "axe" / "node_modules" / "axe-core"
       / "axe.min.js")


def axe_problems(page) -> list[str]:
    """axe-core's serious and critical violations on the page (WCAG 2 A and AA)."""
    page.add_script_tag(path=str(AXE))
    found = page.evaluate("""async () => {
        const r = await axe.run(document, {runOnly: ['wcag2a', 'wcag2aa', 'best-practice']});
        return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
          .map(v => `${v.id} (${v.impact}): ` +
                    v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', '));
    }""")
    return [f"{page.url}: {x}" for x in found]


@pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (.ci/run installs it "
                                             "with npm into build/axe)")
def test_axe_finds_no_serious_problem_on_any_page(site, browser):
    import httpx

    def table(game, seats, **extra):
        return httpx.post(site + "/api/tables", json={"game": game, "seats": seats, **extra},
                          timeout=120).json()

    person = {"kind": "human", "name": "Ada"}
    bots_only = table("phantom", [{"kind": "bot", "bot": "random"}] * 2)
    pages = ["/", "/lobby", "/games", "/ratings", "/table/no-such-table", "/rules",
             "/rules/resistance", "/rules/hearts", "/rules/no-such-game"]
    waits = {"/rules": ".gamelist a", "/rules/resistance": "#text h2",
             "/rules/hearts": "#text h2", "/rules/no-such-game": "#err:not(:empty)"}
    for game, seats, ready in (
            ("resistance", [person] + [{"kind": "bot", "bot": "random"}] * 4, ".player"),
            ("hearts", [person] + [{"kind": "bot", "bot": "random"}] * 3, ".hcard"),
            ("spades", [person] + [{"kind": "bot", "bot": "random"}] * 3, ".hcard"),
            ("phantom", [person, {"kind": "bot", "bot": "random"}], ".cell"),
            ("cheat", [person, {"kind": "bot", "bot": "random"}], ".pcard"),
            ("othello", [person, {"kind": "bot", "bot": "random"}], ".cell"),
            ("checkers", [person, {"kind": "bot", "bot": "random"}], ".cell"),
            ("backgammon", [person, {"kind": "bot", "bot": "random"}], ".point"),
            ("doudizhu", [person] + [{"kind": "bot", "bot": "random"}] * 2, ".hcard"),
            ("minidoudizhu", [person, {"kind": "bot", "bot": "random"}], ".hcard"),
            ("lotrc", [person, {"kind": "bot", "bot": "random"}], ".piece"),
            ("saboteur", [person] + [{"kind": "bot", "bot": "random"}] * 2, ".sab"),
            ("scotlandyard", [{"kind": "bot", "bot": "random"}, person], ".station")):
        t = table(game, seats)
        url = t["invites"][0]["url"]
        pages.append(url)
        waits[url] = ready
        if game == "spades":
            spades = url
        if game == "phantom":
            pages.append(f"/table/{t['table']['id']}?watch=1")
            waits[pages[-1]] = "#seatbar li"
    for _ in range(100):  # the bots-only game is stored: its replay
        gid = httpx.get(f"{site}/api/tables/{bots_only['table']['id']}").json()["game_id"]
        if gid:
            break
        import time
        time.sleep(0.1)
    pages.append(f"/replay/{gid}")
    waits[pages[-1]] = "#steptext"
    problems: list[str] = []
    for width in (1280, 390):
        page = browser.new_page(viewport={"width": width, "height": 900}, bypass_csp=True)
        for url in pages:
            page.goto(site + url)
            page.wait_for_selector(waits.get(url, "header a"))
            if url == spades:
                shot(page, f"spades-bid-{width}")
            problems += axe_problems(page)
        page.close()
    assert not problems, "\n".join(problems)


# The drawn views of the board and card games: one whole game each against random
# bots, by clicking and by keyboard only, at a desktop's and at a phone's width.
# game -> (bot seats, options, what shows it is our turn)
DRAWN = {
    "checkers": (1, {}, ".cell.playable"),
    # To the end at 1280 px (bearing off on the tray); to a 24-roll limit on a phone.
    "backgammon": (1, {}, ".point.playable, #actions button.move"),
    "doudizhu": (2, {}, ".hcard.pickable, #actions button.move"),
    "minidoudizhu": (1, {}, ".hcard.pickable, #actions button.move"),
    "saboteur": (2, {}, ".hcard.pickable"),
    # The placement setup on a phone, the fixed one at 1280 px.
    "lotrc": (1, {}, ".piece.playable, .region.playable, #actions button.move"),
    # Mr X at 1280 px, the seekers (two detectives) on a phone; six rounds.
    "scotlandyard": (1, {"detectives": "2", "rounds": "6"},
                     ".station.playable, #actions button.move"),
    # Any marked square, card or bid, at random (_any_move); one deal of each card game.
    "phantom": (1, {}, PLAY),
    "othello": (1, {}, PLAY),
    "hearts": (3, {"target": "0"}, PLAY),
    "spades": (3, {"target": "0"}, PLAY),
}


def _press(page, selector: str, keyboard: bool) -> None:
    """Play what ``selector`` finds first: by a click, or by Tab-focus and Enter."""
    target = page.locator(selector).first
    if keyboard:
        target.focus()
        page.keyboard.press("Enter")
    else:
        target.click()


def _board_move(page, kind: str, keyboard: bool) -> str:
    """Checkers/Backgammon: a marked target if a piece is picked, else pick a piece.
    Returns what was done ("chain", "capture", "off", "pass", "move")."""
    dest, src = (".cell.dest.playable", ".cell.src.playable") if kind == "cell" else \
        (".point.dest.playable", ".point.src.playable")
    if kind == "point" and page.query_selector("#actions button.move"):
        _press(page, "#actions button.move", keyboard)  # no die can be played: pass
        return "pass"
    if not page.query_selector(dest):
        _press(page, src, keyboard)
        assert page.get_attribute(src.replace(".playable", ".picked"), "aria-pressed") == "true"
    target = page.locator(dest).first
    what = ("chain" if "Go on capturing" in page.inner_text("#actions") else
            "capture" if "capturing" in (target.get_attribute("aria-label") or "") else
            "off" if (target.get_attribute("data-point") or "").startswith("off") else "move")
    _press(page, dest, keyboard)
    return what


def _saboteur_move(page, rng, keyboard: bool) -> str:
    """Saboteur: pick a card in the hand (tunnel cards first), then a marked cell (turned
    round at random when it can be), else a player; after two cards that cannot be
    played, discard the second. Returns what was done."""
    cards = page.query_selector_all("#hand .hcard.pickable")
    order = sorted(range(len(cards)), key=lambda i: (int(cards[i].get_attribute("data-card")) >= 16,
                                                     rng.random()))
    for i in order:
        _press(page, f'#hand .hcard[data-i="{i}"]', keyboard)
        assert page.get_attribute(f'#hand .hcard[data-i="{i}"]', "aria-pressed") == "true"
        if page.query_selector("#rotate") and rng.random() < 0.5:
            _press(page, "#rotate", keyboard)
        if page.query_selector(".cell.dest.playable"):
            _press(page, ".cell.dest.playable", keyboard)
            return "cell"
        if page.query_selector("#actions button.play"):
            _press(page, "#actions button.play", keyboard)
            return "player"
        if i == order[-1] or i in order[1:2]:  # two tries, then a discard (a pass)
            _press(page, "#actions button.discard", keyboard)
            return "discard"
        page.click(f'#hand .hcard[data-i="{i}"]')  # put it back
    raise AssertionError("no card could be played or discarded")


def _lotrc_move(page, rng, keyboard: bool) -> str:
    """LOTR:C: a marked region if a character is picked, else pick one (at random) and
    then a region; else a card or decision button. Returns what was done."""
    retreat = "retreat there" in page.inner_text("#actions")
    if retreat and (rng.random() < 0.5 or not page.query_selector("#actions button.move")):
        _press(page, ".region.dest.playable", keyboard)
        return "retreat"
    if retreat or not page.query_selector(".region.dest.playable"):
        if retreat or not page.query_selector(".piece.src.playable"):
            buttons = page.query_selector_all("#actions button.move")
            i = rng.randrange(len(buttons))
            what = "card" if "card" in (buttons[i].get_attribute("class") or "") else "decision"
            _press(page, f"#actions button.move >> nth={i}", keyboard)
            return what
        n = len(page.query_selector_all(".piece.src.playable"))
        _press(page, f".piece.src.playable >> nth={rng.randrange(n)}", keyboard)
        assert page.get_attribute(".piece.picked", "aria-pressed") == "true"
    setup = "Setup:" in page.inner_text("#actions")
    n = len(page.query_selector_all(".region.dest.playable"))
    _press(page, f".region.dest.playable >> nth={rng.randrange(n)}", keyboard)
    return "place" if setup else "move"


def _scotlandyard_move(page, rng, keyboard: bool) -> str:
    """Scotland Yard: a station marked on the map, then a ticket to go there; sometimes
    Mr X's double move; the seekers look at where Mr X may be first."""
    if page.query_selector("#possible[aria-pressed=false]") and "seekers" in page.inner_text(
            "#board h2"):
        _press(page, "#possible", keyboard)
        assert page.get_attribute("#possible", "aria-pressed") == "true"
        n = len(page.query_selector_all(".station.possible"))
        assert n and f"({n} station" in page.inner_text("#possible"), n
    double = page.query_selector('#actions button.move:has-text("double")')
    if double and rng.random() < 0.3:
        _press(page, '#actions button.move:has-text("double")', keyboard)
        return "double"
    stations = page.query_selector_all(".station.dest.playable")
    if not stations:
        _press(page, "#actions button.move", keyboard)  # pass: Mr X cannot move
        return "pass"
    _press(page, f".station.dest.playable >> nth={rng.randrange(len(stations))}", keyboard)
    assert page.get_attribute(".station.picked", "aria-pressed") == "true"
    n = len(page.query_selector_all("#actions button.play"))
    _press(page, f"#actions button.play >> nth={rng.randrange(n)}", keyboard)
    return "ticket"


def _any_move(page, rng, keyboard: bool) -> str:
    """Phantom, Othello, Hearts, Spades: a marked square, a card in hand or a button (a
    bid, a pass), chosen at random. Returns which ("cell", "card", "button")."""
    i = rng.randrange(page.locator(PLAY).count())
    cls = page.locator(PLAY).nth(i).get_attribute("class") or ""
    _press(page, f"{PLAY} >> nth={i}", keyboard)
    return "cell" if "cell" in cls else "card" if "hcard" in cls else "button"


def _climb_move(page, rng, keyboard: bool) -> str:
    """Dou Di Zhu: pick cards in the hand (a trio, a pair or one card), play a move those
    exact cards make (a trio with its kicker when it can), else put them back and try the
    next; pass when nothing fits. Returns what was done."""
    ranks = [c.get_attribute("data-rank")
             for c in page.query_selector_all("#hand .hcard.pickable")]  # none: only a pass
    kicker = "pick a kicker" in page.inner_text("#handtitle")
    groups = [[i, i + 1, i + 2] for i in range(len(ranks) - 2) if len(set(ranks[i:i + 3])) == 1]
    groups = groups[:1] if groups and not kicker and rng.random() < 0.7 else []
    # Following a move: high cards first (they are the ones likely to beat it).
    following = "To beat" in page.inner_text("#board")
    for i in (reversed if following and not kicker else iter)(range(len(ranks))):
        pair = i + 1 < len(ranks) and ranks[i + 1] == ranks[i]
        groups += [[i, i + 1], [i]] if pair and (kicker or rng.random() < 0.5) else [[i]]
    for group in groups:
        for j in group:
            _press(page, f'#hand .hcard[data-i="{j}"]', keyboard)
        if page.query_selector("#actions button.play"):
            assert page.get_attribute(f'#hand .hcard[data-i="{group[0]}"]',
                                      "aria-pressed") == "true"
            _press(page, "#actions button.play >> nth=-1", keyboard)  # kickers come last
            return "kicker" if kicker else f"{len(group)} cards"
        for j in group:
            page.click(f'#hand .hcard[data-i="{j}"]')
    _press(page, "#actions button.move", keyboard)  # pass
    return "pass"


@pytest.mark.parametrize("width,height", [(1280, 900), (390, 844)])
@pytest.mark.parametrize("game", list(DRAWN))
def test_drawn_view_plays_a_whole_game(site, browser, game, width, height):
    bots, options, ready = DRAWN[game]
    rng = random.Random(3)
    page = browser.new_page(viewport={"width": width, "height": height}, bypass_csp=True)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(site + "/")
    page.wait_for_selector("#seats tr")
    page.select_option("#game", game)
    if game in ("saboteur", "scotlandyard"):
        page.select_option("#players", str(bots + 1))
    if game == "lotrc" and width < 600:
        page.select_option("[data-opt=setup]", "placed")
    page.wait_for_function(f"document.querySelectorAll('#seats tr').length === {bots + 1}")
    if game == "backgammon" and width < 600:
        options = {"max_turns": "24"}
    for name, value in options.items():
        page.fill(f"[data-opt={name}]", value)
    for j in range(2, bots + 2):
        page.fill(f"#seats tr:nth-child({j}) .bot", "random")
    if game in ("checkers", "scotlandyard") and width < 600:  # a person as White, the seekers
        page.select_option("#seats tr:nth-child(1) .kind", "bot")
        page.fill("#seats tr:nth-child(1) .bot", "random")
        page.select_option("#seats tr:nth-child(2) .kind", "human")
    page.fill("#seed", "21")  # the deal, and so the game, is the same every run
    page.click("#create")
    page.wait_for_url("**/table/**")
    done: set[str] = set()
    for turn in range(400):
        page.wait_for_selector(f"{ready}, #replaylink", timeout=60_000)
        if page.query_selector("#replaylink"):
            break
        if turn == (2 if game == "minidoudizhu" else 6):  # a mini deal is short
            shot(page, f"{game}-{width}")
        if game == "lotrc" and width < 600 and turn == 1:  # Dark placing its pieces
            shot(page, "lotrc-setup-390")
        keyboard = turn % 2 == 1
        if game in ("checkers", "backgammon"):
            done.add(_board_move(page, "cell" if game == "checkers" else "point", keyboard))
        elif game == "saboteur":
            done.add(_saboteur_move(page, rng, keyboard))
        elif game == "lotrc":
            done.add(_lotrc_move(page, rng, keyboard))
        elif game == "scotlandyard":
            done.add(_scotlandyard_move(page, rng, keyboard))
        elif game in ("phantom", "othello", "hearts", "spades"):
            done.add(_any_move(page, rng, keyboard))
        else:
            done.add(_climb_move(page, rng, keyboard))
        assert page.inner_text("#err") == "", "the server refused a move made on the board"
    assert page.query_selector("#replaylink"), "the game did not finish"
    assert page.inner_text("#outcome")
    if game == "doudizhu":  # a trio picked card by card, then its kicker: two steps
        assert {"3 cards", "kicker"} <= done, done
    if game == "minidoudizhu":  # the log names the opponent as the panels do
        assert "random:" in page.inner_text("#log") and "player 1" not in page.inner_text("#log")
    if game == "checkers":  # a capture (as Black on this seed, a chained one too)
        assert {"capture", "chain"} <= done if width > 600 else "capture" in done, done
        # Your own side at the bottom: a1 is bottom left for Black, top right for White.
        a1 = page.locator('#board .cell[data-square="a1"] rect').bounding_box()
        h8 = page.locator('#board .cell[data-square="h8"] rect').bounding_box()
        assert (a1["y"] > h8["y"]) == (width > 600) and (a1["x"] < h8["x"]) == (width > 600)
    if game == "lotrc":  # moves on the board, combat cards; the setup placed on a phone
        assert {"move", "card"} <= done and ("place" in done) == (width < 600), done
    if game == "scotlandyard":  # stations then tickets
        assert "ticket" in done, done
    if game == "saboteur":  # tunnel cards put on the grid from the hand
        assert "cell" in done, done
    if game == "spades":  # a bid (a button), then cards from the hand
        assert {"button", "card"} <= done, done
    if game in ("phantom", "othello"):  # played on the board
        assert "cell" in done, done
    if game == "backgammon" and width > 600:  # played to the end: bearing off the tray
        assert "off" in done, done
    assert not errors, errors
    page.close()


def _tab_to(page, selector: str, limit: int = 120) -> None:
    """Press Tab (only the keyboard) until the focused element matches ``selector``."""
    for _ in range(limit):
        if page.evaluate("s => !!document.activeElement && document.activeElement.matches(s)",
                         selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"{selector} cannot be reached with Tab")


def test_resistance_whole_game_by_keyboard_only(site, browser):
    """The Resistance with no mouse at all: Tab to a player, Enter to pick them, Tab to
    "Propose team", vote and play mission cards the same way.

    A table with a person is dealt at random (its seed is never the visitor's), so the
    person may never lead in a short game: play whole games until they have proposed."""
    rng = random.Random(4)
    page = browser.new_page(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    seen = set()
    for _game in range(12):
        _keyboard_resistance_game(page, site, rng, seen)
        if {"propose", "vote"} <= seen:
            break
    assert {"propose", "vote"} <= seen
    assert not errors, errors
    page.close()


def _keyboard_resistance_game(page, site: str, rng: random.Random, seen: set) -> None:
    """Play one Resistance game at seat 0 by keyboard, noting which kinds of move it made."""
    page.goto(site + "/")
    page.wait_for_selector("#seats tr")
    for j in range(2, 6):
        page.fill(f"#seats tr:nth-child({j}) .bot", "random")
    page.click("#create")
    page.wait_for_url("**/table/**")
    for _ in range(120):
        page.wait_for_selector("#propose, #approve, #success, #replaylink", timeout=60_000)
        if page.query_selector("#replaylink"):
            break
        if page.query_selector("#propose"):
            size = int(page.inner_text("#actions").split("Click ")[1].split(" ")[0])
            for j in [0] + rng.sample(range(1, 5), size - 1):
                _tab_to(page, f'.player.pickable[data-seat="{j}"]')
                page.keyboard.press("Enter")
                assert page.get_attribute(f'.player[data-seat="{j}"]', "aria-pressed") == "true"
            _tab_to(page, "#propose:not([disabled])")
            page.keyboard.press("Enter")
            seen.add("propose")
        elif page.query_selector("#approve"):
            _tab_to(page, "#approve" if rng.random() < 0.7 else "#reject")
            page.keyboard.press("Enter")
            seen.add("vote")
        else:
            _tab_to(page, "#fail" if page.query_selector("#fail") else "#success")
            page.keyboard.press(" ")
            seen.add("mission")
    assert page.query_selector("#replaylink"), "the game did not finish"
    assert page.inner_text("#outcome").startswith(("You won", "You lost"))
