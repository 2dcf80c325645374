"""The golden's own players: each game's heuristic bots as they were when the
digests were taken (``bench.golden`` plays these, not the game's bots, under the
same names, so a better bot never moves a digest; the digests cover the rules).

``FROZEN[(game, name)]``: the bot ``bench.golden`` plays for a configuration that
names ``name``; a name not here is the game's own bot (``random`` never changes).
The copies read the rules' helpers: a rules change those helpers see may still
change a digest, as it should."""

from __future__ import annotations

from . import kaisers_pirates, merchants_and_marauders

FROZEN = {
    ("kaisers-pirates", "heuristic"): kaisers_pirates.heuristic_bot,
    ("merchants-and-marauders", "merchant"): merchants_and_marauders.merchant_bot,
    ("merchants-and-marauders", "pirate"): merchants_and_marauders.pirate_bot,
}
