"""Where the Italian and Portuguese books disagree, the other reading as an option
(readings.py; RULINGS.md, "Where the two translations differ"): each option driven with
the dice and cards that make the two readings differ, the outcome each book states."""

import re

import pytest

from service.aggregates.merchants_and_marauders.readings import READINGS
from service.aggregates.merchants_and_marauders.rules import RULES
from service.kernel import BadInput

NEW = {"war_bounty": "paid", "second_flag": "warship", "raid_glory": "more_than", "tie_break": "hidden_gold"}


def test_each_reading_is_an_option_with_its_values_said_and_a_bad_value_refused():
    for key, other in NEW.items():
        default = next(iter(READINGS[key]))
        assert RULES.parse_options(2, {key: other.upper()}) == {key: other}
        assert RULES.parse_options(2, {key: f" {default} "}) == {key: default}
        said = RULES.options_said[key]
        assert other in said and default in said and "(default)" in said
        with pytest.raises(BadInput) as refused:
            RULES.parse_options(2, {key: "sometimes"})
        assert f"option {key} must be {default} or {other}, not 'sometimes'" in str(refused.value)
    with pytest.raises(BadInput, match=re.escape("tie_break=coins|hidden_gold")):
        RULES.parse_options(2, {"tiebreak": "hidden_gold"})
