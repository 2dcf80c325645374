"""A fight and an intercept resolved by clicking on the seats' pages: a Merchants & Marauders
game played on by its bots until two ships fight, and a Kaiser's Pirates game until a raider
may intercept; then only the seats' pages act, until the fight or the engagement has ended."""

from __future__ import annotations

from service.http.client import Api

from .pw import GameOver, advance, choose, needs_chromium, offered, open_seat, state

pytestmark = needs_chromium


def types_after(referee: Api, gid: str, after: int) -> list[str]:
    return [e["type"] for e in referee.get(f"/games/{gid}/log", params={"after": after, "limit": 1000}).json()["events"]]


def click_until(pages, referee: Api, gid: str, ended: set, prefer: str | None = None, most: int = 60) -> list[str]:
    start = referee.get(f"/games/{gid}").json()["version"]
    for _ in range(most):
        seen = types_after(referee, gid, start)
        if ended & set(seen):
            return seen
        acting = [p for p in pages if state(p) == "choose"]
        if not acting:
            pages[0].wait_for_function("() => 1", polling=50)
            continue
        p = acting[0]
        texts = p.locator("#choices button.choice").all_inner_texts()
        choose(p, prefer if prefer and any(prefer in t for t in texts) else None)
    raise AssertionError(f"not ended after {most} clicks")


def test_a_merchants_and_marauders_fight_resolved_by_clicking(browser, server, table_factory):
    # the pirate bot fights only what it can beat: a game may end with no fight, then another is dealt
    for attempt in range(6):
        t = table_factory("merchants-and-marauders", 2)
        try:
            advance(server.db, t.gid, lambda m: offered(m, "combat_action"), bot="pirate", seed=2 + attempt)
            break
        except GameOver:
            continue
    else:
        raise AssertionError("no fight in six games")
    pages = [open_seat(browser, server, t.gid, n, t.tokens[n]) for n in (1, 2)]
    assert any(state(p) == "choose" for p in pages)
    seen = click_until(pages, t.referee, t.gid, {"CombatEnded", "CombatWon", "CombatFled"}, prefer="flee")
    assert "CombatActionDeclared" in seen
    for p in pages:
        p.context.close()


def test_a_kaisers_pirates_intercept_resolved_by_clicking(browser, server, table_factory):
    t = table_factory("kaisers-pirates", 2)
    advance(server.db, t.gid, lambda m: offered(m, "intercept"), seed=1)
    pages = [open_seat(browser, server, t.gid, n, t.tokens[n]) for n in (1, 2)]
    raider = next(p for p in pages if state(p) == "choose")
    choose(raider, "intercept")
    seen = click_until(pages, t.referee, t.gid, {"EngagementEnded"})
    assert "EngagementAdvanced" in seen
    for p in pages:
        p.context.close()
