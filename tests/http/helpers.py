"""Playing games through the API."""

import uuid


def play(table, public, rng, on_step=None, max_steps=5000):
    """Random legal play by the seats' own clients until the game ends.
    Returns the number of decisions. ``on_step(seat, response_json)`` sees each answer."""
    steps = 0
    while True:
        st = public.status(table.gid)
        if st["finished"]:
            return steps
        assert st["to_act"], st
        seat = rng.choice(st["to_act"])
        client = table.seats[seat]
        legal = client.legal(table.gid)
        assert legal["seat"] == seat and legal["decisions"], legal
        decision = rng.choice(legal["decisions"])
        r = client.decide(table.gid, decision, legal["version"], key=uuid.uuid4().hex)
        assert r.status_code == 201, r.text
        body = r.json()
        assert body["version"] > legal["version"]
        if on_step is not None:
            on_step(seat, body)
        steps += 1
        assert steps < max_steps


def vis_ok(visible_to, seat):
    """May ``seat`` (0: a spectator) see an event with this visibility?"""
    if visible_to == "all":
        return True
    if visible_to == "referee":
        return False
    return seat in visible_to
